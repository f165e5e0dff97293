// Words for the seeded statements, evidence and comments, and the tag vocabulary. Statements draw
// their nouns uniformly from NOUNS, so a single noun matches about 3% of the claims (a realistic
// full-text search); tags are drawn with a power law, so a few tags are very common and most are rare.

export const NOUNS = [
  "climate", "ocean", "carbon", "forest", "glacier", "drought", "rainfall", "wildfire", "coral", "soil",
  "vaccine", "antibiotic", "virus", "protein", "genome", "enzyme", "neuron", "hormone", "microbiome", "immunity",
  "inflation", "interest", "currency", "market", "wage", "tariff", "housing", "pension", "mortgage", "startup",
  "election", "parliament", "treaty", "referendum", "senate", "budget", "policy", "regulation", "court", "tax",
  "battery", "solar", "turbine", "reactor", "hydrogen", "grid", "pipeline", "lithium", "uranium", "fusion",
  "algorithm", "compiler", "database", "network", "processor", "encryption", "satellite", "robot", "sensor", "software",
  "galaxy", "planet", "asteroid", "comet", "telescope", "orbit", "nebula", "supernova", "exoplanet", "moon",
  "school", "teacher", "student", "university", "exam", "curriculum", "literacy", "tuition", "classroom", "degree",
  "hospital", "doctor", "nurse", "surgery", "diagnosis", "therapy", "diet", "exercise", "sleep", "stress",
  "city", "village", "highway", "railway", "airport", "bicycle", "traffic", "bridge", "tunnel", "harbor",
  "river", "lake", "mountain", "desert", "island", "wetland", "estuary", "valley", "volcano", "earthquake",
  "language", "grammar", "dialect", "alphabet", "poetry", "novel", "library", "archive", "museum", "theater",
  "wheat", "rice", "maize", "coffee", "cocoa", "fishery", "livestock", "fertilizer", "pesticide", "irrigation",
  "bacteria", "fungus", "insect", "pollinator", "predator", "species", "habitat", "migration", "extinction", "evolution",
  "copper", "steel", "cement", "plastic", "glass", "aluminum", "rubber", "textile", "paper", "timber",
  "smartphone", "internet", "television", "radio", "newspaper", "podcast", "advertising", "privacy", "censorship", "misinformation",
  "crime", "prison", "police", "sentence", "verdict", "lawsuit", "patent", "copyright", "contract", "liability",
  "population", "fertility", "longevity", "mortality", "migration", "census", "urbanization", "poverty", "inequality", "employment",
  "quantum", "particle", "photon", "electron", "gravity", "entropy", "magnet", "laser", "superconductor", "plasma",
  "memory", "attention", "emotion", "language", "habit", "motivation", "creativity", "intelligence", "perception", "bias",
  "vitamin", "caffeine", "sugar", "salt", "alcohol", "tobacco", "nicotine", "cholesterol", "fiber", "omega",
  "rocket", "drone", "submarine", "engine", "aircraft", "helicopter", "locomotive", "tractor", "container", "freight",
  "painting", "sculpture", "symphony", "opera", "film", "photography", "architecture", "fashion", "design", "festival",
  "football", "tennis", "marathon", "olympics", "chess", "cycling", "swimming", "doping", "stadium", "referee",
  "glacier", "permafrost", "monsoon", "hurricane", "tornado", "heatwave", "aerosol", "ozone", "methane", "nitrogen",
  "blockchain", "token", "exchange", "bank", "loan", "credit", "debt", "bond", "equity", "dividend",
  "water", "sanitation", "waste", "recycling", "landfill", "compost", "sewage", "desalination", "reservoir", "aquifer",
  "archaeology", "fossil", "dinosaur", "empire", "dynasty", "revolution", "colony", "pyramid", "manuscript", "artifact",
  "antarctica", "arctic", "amazon", "sahara", "himalaya", "mediterranean", "pacific", "atlantic", "siberia", "andes",
  "telescope", "microscope", "spectrometer", "accelerator", "centrifuge", "thermometer", "barometer", "seismograph", "compass", "clock",
] as const;

export const VERBS = [
  "increases", "reduces", "causes", "prevents", "predicts", "explains", "doubles", "halves", "improves", "harms",
  "accelerates", "slows", "replaces", "outperforms", "depends on", "correlates with", "protects", "threatens", "drives", "limits",
] as const;

export const QUALIFIERS = [
  "in most countries", "over the next decade", "according to recent studies", "for most adults", "since 1990",
  "in coastal regions", "when measured carefully", "in the long run", "under current policy", "in controlled trials",
  "despite popular belief", "by at least ten percent", "in urban areas", "for small firms", "in cold climates",
] as const;

/** Tag vocabulary: index 0 is the most frequent (claims draw tags with a power law). */
export const TAGS = [
  "science", "politics", "health", "economics", "technology", "climate", "history", "energy", "education", "space",
  "medicine", "biology", "physics", "law", "finance", "environment", "psychology", "nutrition", "ai", "sports",
  "culture", "transport", "agriculture", "chemistry", "geology", "astronomy", "linguistics", "media", "security", "privacy",
  "demographics", "urbanism", "oceans", "genetics", "neuroscience", "materials", "robotics", "crypto", "labor", "trade",
  "housing", "crime", "elections", "public-health", "vaccines", "ecology", "wildlife", "water", "waste", "mining",
  "aviation", "rail", "shipping", "automotive", "batteries", "nuclear", "solar", "wind", "hydrogen", "oil-gas",
  "software", "hardware", "internet", "telecom", "semiconductors", "quantum", "mathematics", "statistics", "philosophy", "ethics",
  "religion", "art", "music", "film", "literature", "architecture", "fashion", "food", "travel", "tourism",
  "archaeology", "paleontology", "anthropology", "sociology", "migration", "poverty", "inequality", "pensions", "taxes", "monetary-policy",
  "central-banks", "inflation", "employment", "startups", "antitrust", "copyright", "patents", "courts", "policing", "prisons",
];
