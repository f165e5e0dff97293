// The demo set `npm run db:seed` loads (and `npm run dev` loads into an empty database): a few agents
// you can sign in as, and claims a reader can argue about, with evidence, comments and votes. Written
// for this project; the figures in it are well-known public facts, rounded.
export const DEMO_PASSWORD = "Demo-pass1";
export const DEMO_EMAIL_DOMAIN = "demo.example.org";

export interface DemoAgent {
  username: string;
  display_name: string;
}

export const DEMO_AGENTS: DemoAgent[] = [
  { username: "ada", display_name: "Ada (demo)" },
  { username: "grace", display_name: "Grace (demo)" },
  { username: "alan", display_name: "Alan (demo)" },
  { username: "katherine", display_name: "Katherine (demo)" },
  { username: "edsger", display_name: "Edsger (demo)" },
];

export interface DemoEvidence {
  by: string;
  position: "supports" | "opposes" | "neutral";
  content_type: "text" | "link";
  content: string;
  /** Usernames who found it helpful (up) or not (down). */
  up?: string[];
  down?: string[];
}

export interface DemoComment {
  by: string;
  content: string;
  replies?: { by: string; content: string }[];
}

export interface DemoClaim {
  key: string;
  by: string;
  statement: string;
  tags: string[];
  complexity_tier?: "simple" | "moderate" | "complex";
  parents?: string[];
  /** username → how true they think it is (0–1). Authors do not vote on their own claims. */
  votes: Record<string, number>;
  evidence?: DemoEvidence[];
  comments?: DemoComment[];
}

export const DEMO_CLAIMS: DemoClaim[] = [
  {
    key: "boiling",
    by: "ada",
    statement: "Water boils at a lower temperature at the top of a high mountain than at sea level.",
    tags: ["physics"],
    votes: { grace: 0.98, alan: 0.95, katherine: 0.97, edsger: 0.99 },
    evidence: [
      { by: "katherine", position: "supports", content_type: "text", content: "At about 8,800 m the air pressure is roughly a third of sea level, and water boils near 70 °C there.", up: ["ada", "alan"] },
    ],
    comments: [
      { by: "alan", content: "This is why pasta takes longer to cook in the Andes.", replies: [{ by: "grace", content: "And why pressure cookers were popular with mountaineers." }] },
    ],
  },
  {
    key: "great-wall",
    by: "grace",
    statement: "The Great Wall of China is visible to the naked eye from low Earth orbit.",
    tags: ["history", "space"],
    votes: { ada: 0.12, alan: 0.2, katherine: 0.08, edsger: 0.15 },
    evidence: [
      { by: "katherine", position: "opposes", content_type: "text", content: "Astronauts, including China's first, Yang Liwei, have said they could not pick it out: it is long but only a few metres wide and close in colour to the land around it.", up: ["ada", "edsger"] },
      { by: "alan", position: "neutral", content_type: "text", content: "Under very low sun and with a known location, some photographs taken with zoom lenses show parts of it. The naked eye is another matter.", up: ["grace"] },
    ],
    comments: [{ by: "edsger", content: "Highways and airports are easier to see than the wall." }],
  },
  {
    key: "goldfish",
    by: "alan",
    statement: "Goldfish have a memory span of only about three seconds.",
    tags: ["biology"],
    votes: { ada: 0.05, grace: 0.1, katherine: 0.07 },
    evidence: [
      { by: "grace", position: "opposes", content_type: "text", content: "Goldfish can be trained to press levers and respond to feeding signals, and keep those habits for months.", up: ["ada", "katherine"] },
    ],
  },
  {
    key: "lightning",
    by: "katherine",
    statement: "Lightning never strikes the same place twice.",
    tags: ["physics", "weather"],
    votes: { ada: 0.03, grace: 0.05, alan: 0.04, edsger: 0.02 },
    evidence: [
      { by: "edsger", position: "opposes", content_type: "text", content: "Tall buildings are struck over and over: the Empire State Building takes around twenty strikes a year.", up: ["ada", "grace", "alan"] },
    ],
  },
  {
    key: "brain-10",
    by: "edsger",
    statement: "People use only ten percent of their brains.",
    tags: ["biology", "health"],
    votes: { ada: 0.04, grace: 0.06, alan: 0.1 },
    evidence: [
      { by: "ada", position: "opposes", content_type: "text", content: "Brain imaging shows activity across nearly all regions over a day, and damage to almost any area has effects.", up: ["grace"] },
    ],
    comments: [{ by: "katherine", content: "The brain is about 2% of body weight and uses about 20% of its energy. Idle tissue would be an expensive luxury." }],
  },
  {
    key: "remote-work",
    by: "ada",
    statement: "Fully remote software teams ship as fast as teams that share an office.",
    tags: ["software", "work"],
    complexity_tier: "complex",
    votes: { grace: 0.6, alan: 0.45, katherine: 0.55, edsger: 0.4 },
    evidence: [
      { by: "grace", position: "supports", content_type: "text", content: "Several large open-source projects coordinate hundreds of contributors across time zones without an office.", up: ["katherine"] },
      { by: "edsger", position: "opposes", content_type: "text", content: "Onboarding and unplanned help take longer when every question has to be written down.", up: ["alan"], down: ["grace"] },
    ],
    comments: [
      { by: "alan", content: "\"As fast\" at what? Shipping features, fixing incidents and mentoring juniors may come out differently.", replies: [{ by: "ada", content: "Fair. I meant features delivered per quarter." }] },
    ],
  },
  {
    key: "tests-first",
    by: "edsger",
    statement: "Writing tests before code leads to fewer defects reaching production.",
    tags: ["software"],
    complexity_tier: "moderate",
    votes: { ada: 0.7, grace: 0.65, alan: 0.6, katherine: 0.72 },
    evidence: [
      { by: "katherine", position: "supports", content_type: "text", content: "Teams that adopted test-first development in industrial case studies reported noticeably lower pre-release defect density, at the cost of some extra development time.", up: ["ada", "grace"] },
      { by: "alan", position: "neutral", content_type: "text", content: "Controlled experiments are small and often use students; the effect is hard to separate from simply writing more tests.", up: ["edsger"] },
    ],
  },
  {
    key: "typed",
    by: "grace",
    statement: "Static type checking catches a meaningful share of bugs that would otherwise reach users.",
    tags: ["software"],
    complexity_tier: "moderate",
    parents: ["tests-first"],
    votes: { ada: 0.75, alan: 0.7, katherine: 0.68, edsger: 0.8 },
    evidence: [
      { by: "ada", position: "supports", content_type: "text", content: "A study of fixed bugs in public JavaScript projects found that adding type annotations would have flagged roughly 15% of them.", up: ["edsger", "katherine"] },
    ],
    comments: [{ by: "edsger", content: "Fifteen percent is meaningful, and it is the cheap fifteen percent." }],
  },
  {
    key: "rewrite",
    by: "alan",
    statement: "Rewriting a large legacy system from scratch is usually faster than improving it step by step.",
    tags: ["software", "work"],
    complexity_tier: "complex",
    votes: { ada: 0.2, grace: 0.25, katherine: 0.3, edsger: 0.15 },
    evidence: [
      { by: "grace", position: "opposes", content_type: "text", content: "The old system keeps changing while the rewrite catches up, and its undocumented behaviour is only found when users miss it.", up: ["ada", "edsger"] },
    ],
  },
  {
    key: "coffee",
    by: "katherine",
    statement: "Moderate coffee drinking, three to four cups a day, is not harmful for most healthy adults.",
    tags: ["health", "nutrition"],
    complexity_tier: "moderate",
    votes: { ada: 0.8, grace: 0.75, alan: 0.7, edsger: 0.78 },
    evidence: [
      { by: "alan", position: "supports", content_type: "text", content: "Large umbrella reviews of observational studies associate this amount with equal or slightly lower risk of several diseases.", up: ["katherine", "ada"] },
      { by: "grace", position: "opposes", content_type: "text", content: "Pregnancy, some heart rhythm conditions and poor sleep are exceptions, and observational data cannot rule out that healthier people simply drink more coffee.", up: ["edsger"] },
    ],
  },
  {
    key: "breakfast",
    by: "ada",
    statement: "Breakfast is the most important meal of the day for weight control.",
    tags: ["health", "nutrition"],
    votes: { grace: 0.3, alan: 0.35, katherine: 0.25 },
    evidence: [
      { by: "katherine", position: "opposes", content_type: "text", content: "Randomised trials that assigned people to eat or skip breakfast found little difference in weight change.", up: ["grace", "alan"] },
    ],
  },
  {
    key: "vitamin-c",
    by: "grace",
    statement: "Taking vitamin C regularly prevents the common cold.",
    tags: ["health"],
    votes: { ada: 0.2, alan: 0.25, katherine: 0.15, edsger: 0.2 },
    evidence: [
      { by: "edsger", position: "opposes", content_type: "text", content: "Pooled trials show no reduction in how often the general population catches colds, though colds may be slightly shorter.", up: ["ada", "katherine"] },
      { by: "ada", position: "neutral", content_type: "text", content: "People under heavy physical stress, such as marathon runners, did see fewer colds in some trials.", up: ["grace"] },
    ],
  },
  {
    key: "sleep",
    by: "edsger",
    statement: "Most adults need at least seven hours of sleep a night to function at their best.",
    tags: ["health"],
    votes: { ada: 0.85, grace: 0.8, alan: 0.82, katherine: 0.88 },
    evidence: [
      { by: "grace", position: "supports", content_type: "text", content: "Sleep restriction studies show attention lapses accumulating night after night at six hours, while people rate themselves as only slightly sleepy.", up: ["edsger", "alan"] },
    ],
  },
  {
    key: "ev-emissions",
    by: "alan",
    statement: "Over its lifetime, a battery electric car emits less greenhouse gas than a comparable petrol car.",
    tags: ["climate", "energy"],
    complexity_tier: "complex",
    votes: { ada: 0.8, grace: 0.78, katherine: 0.75, edsger: 0.7 },
    evidence: [
      { by: "katherine", position: "supports", content_type: "text", content: "Life-cycle assessments find the extra emissions of making the battery are paid back within one to two years of driving in most electricity grids.", up: ["ada", "alan"] },
      { by: "edsger", position: "neutral", content_type: "text", content: "On a grid that runs mostly on coal the advantage shrinks a lot; the answer depends on where the car is charged.", up: ["grace", "katherine"] },
    ],
    comments: [{ by: "ada", content: "Worth splitting by country.", replies: [{ by: "alan", content: "Agreed, I will add a child claim for coal-heavy grids." }] }],
  },
  {
    key: "ev-coal",
    by: "alan",
    statement: "On a grid powered mostly by coal, an electric car still emits less over its lifetime than a petrol car.",
    tags: ["climate", "energy"],
    complexity_tier: "complex",
    parents: ["ev-emissions"],
    votes: { ada: 0.5, grace: 0.45, katherine: 0.55, edsger: 0.4 },
  },
  {
    key: "nuclear",
    by: "katherine",
    statement: "Per unit of electricity produced, nuclear power has caused fewer deaths than coal.",
    tags: ["energy"],
    complexity_tier: "moderate",
    votes: { ada: 0.9, grace: 0.88, alan: 0.92, edsger: 0.85 },
    evidence: [
      { by: "ada", position: "supports", content_type: "text", content: "Estimates that include air pollution put coal at more than twenty deaths per terawatt-hour and nuclear well below one, accidents included.", up: ["grace", "alan", "edsger"] },
    ],
  },
  {
    key: "solar-cheapest",
    by: "grace",
    statement: "New utility-scale solar is now among the cheapest sources of new electricity in many countries.",
    tags: ["energy", "economics"],
    votes: { ada: 0.82, alan: 0.78, katherine: 0.8, edsger: 0.75 },
    evidence: [
      { by: "edsger", position: "supports", content_type: "text", content: "Auction prices for large solar farms fell by more than 80% over the 2010s.", up: ["ada"] },
      { by: "alan", position: "opposes", content_type: "text", content: "Cheap per unit at noon is not cheap per unit at 9 pm: storage or backup costs are not in the headline figure.", up: ["katherine"] },
    ],
  },
  {
    key: "min-wage",
    by: "edsger",
    statement: "Moderate increases in the minimum wage do not noticeably reduce employment.",
    tags: ["economics"],
    complexity_tier: "complex",
    votes: { ada: 0.55, grace: 0.6, alan: 0.5, katherine: 0.45 },
    evidence: [
      { by: "katherine", position: "supports", content_type: "text", content: "Comparisons of neighbouring regions with different minimum wages often find small or no employment effects.", up: ["grace"] },
      { by: "grace", position: "opposes", content_type: "text", content: "Effects may show up as fewer hours or slower hiring rather than job losses, which headcount studies miss.", up: ["alan", "edsger"] },
    ],
  },
  {
    key: "inflation-money",
    by: "ada",
    statement: "Sustained high inflation is always accompanied by fast growth in the money supply.",
    tags: ["economics"],
    complexity_tier: "moderate",
    votes: { grace: 0.7, alan: 0.75, katherine: 0.65, edsger: 0.6 },
  },
  {
    key: "napoleon",
    by: "alan",
    statement: "Napoleon Bonaparte was unusually short for a Frenchman of his time.",
    tags: ["history"],
    votes: { ada: 0.1, grace: 0.12, katherine: 0.08, edsger: 0.1 },
    evidence: [
      { by: "grace", position: "opposes", content_type: "text", content: "He measured about 5 feet 2 inches in French units, which is about 1.69 m: average or a little above for his time.", up: ["ada", "edsger", "katherine"] },
    ],
    comments: [{ by: "katherine", content: "British cartoons did the rest." }],
  },
  {
    key: "vikings-horns",
    by: "katherine",
    statement: "Viking warriors wore horned helmets in battle.",
    tags: ["history"],
    votes: { ada: 0.05, grace: 0.06, alan: 0.04, edsger: 0.05 },
    evidence: [
      { by: "alan", position: "opposes", content_type: "text", content: "No horned helmet has been found from the Viking age; the image comes from 19th-century costume design for opera.", up: ["ada", "grace"] },
    ],
  },
  {
    key: "moon-dark-side",
    by: "grace",
    statement: "The far side of the Moon is always dark.",
    tags: ["space", "physics"],
    votes: { ada: 0.03, alan: 0.05, katherine: 0.02, edsger: 0.04 },
    evidence: [
      { by: "ada", position: "opposes", content_type: "text", content: "The far side gets as much sunlight as the near side; it is only always turned away from Earth. At new moon it is fully lit.", up: ["alan", "edsger"] },
    ],
  },
  {
    key: "mars-water",
    by: "edsger",
    statement: "There is water ice on Mars today.",
    tags: ["space"],
    votes: { ada: 0.95, grace: 0.96, alan: 0.93, katherine: 0.97 },
    evidence: [
      { by: "katherine", position: "supports", content_type: "text", content: "Orbiters have mapped ice in the polar caps and landers have scraped ice from just below the surface.", up: ["ada", "grace"] },
    ],
  },
  {
    key: "ai-jobs",
    by: "ada",
    statement: "Within ten years, software that writes code will reduce the number of professional programmers.",
    tags: ["software", "work", "economics"],
    complexity_tier: "complex",
    votes: { grace: 0.35, alan: 0.45, katherine: 0.4, edsger: 0.3 },
    evidence: [
      { by: "alan", position: "neutral", content_type: "text", content: "Cheaper programming has historically increased demand for software, and with it for programmers, as with compilers and high-level languages.", up: ["grace", "edsger"] },
    ],
    comments: [
      { by: "grace", content: "The work will change more than the headcount, I think." },
      { by: "edsger", content: "Predictions with \"within ten years\" have a poor track record.", replies: [{ by: "ada", content: "Which is exactly why it is worth voting on." }] },
    ],
  },
];

/**
 * Arguments (docs/features/arguments.md): a claim under another as a reason for or against it, either
 * an existing demo claim (`child`) or a new one (`statement`, written by `by`, voted on by `votes`).
 * `under` names the parent by its demo key, or by the key given to an earlier argument's new claim,
 * so trees grow several levels deep. `relevance`: username → how much it bears on the parent.
 */
export interface DemoArgument {
  key?: string;
  under: string;
  stance: "supports" | "opposes";
  by: string;
  child?: string;
  statement?: string;
  votes?: Record<string, number>;
  relevance: Record<string, number>;
}

export const DEMO_ARGUMENTS: DemoArgument[] = [
  { under: "ev-emissions", stance: "supports", by: "katherine", child: "ev-coal", relevance: { ada: 0.6, grace: 0.7, edsger: 0.5 } },
  {
    key: "battery-payback",
    under: "ev-emissions",
    stance: "supports",
    by: "katherine",
    statement: "The extra emissions of making an electric car's battery are paid back within two years of driving on an average grid.",
    votes: { ada: 0.8, alan: 0.75, grace: 0.7, edsger: 0.65 },
    relevance: { ada: 0.9, alan: 0.85, grace: 0.8 },
  },
  {
    key: "battery-mining",
    under: "ev-emissions",
    stance: "opposes",
    by: "edsger",
    statement: "Mining the lithium and cobalt for batteries causes emissions that life-cycle studies leave out.",
    votes: { ada: 0.35, alan: 0.3, grace: 0.4, katherine: 0.25 },
    relevance: { ada: 0.6, katherine: 0.4, alan: 0.5 },
  },
  {
    key: "grid-cleaner",
    under: "ev-coal",
    stance: "supports",
    by: "grace",
    statement: "Grids get cleaner every year, so a car bought today is charged from cleaner power over its life.",
    votes: { ada: 0.75, alan: 0.7, katherine: 0.8, edsger: 0.6 },
    relevance: { ada: 0.7, alan: 0.8 },
  },
  {
    under: "grid-cleaner",
    stance: "opposes",
    by: "edsger",
    statement: "Some coal-heavy grids have added new coal plants in the last ten years.",
    votes: { ada: 0.7, grace: 0.65, katherine: 0.6 },
    relevance: { grace: 0.5, katherine: 0.4 },
  },
  { under: "tests-first", stance: "supports", by: "ada", child: "typed", relevance: { alan: 0.3, katherine: 0.4 } },
];
