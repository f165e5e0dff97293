// The demo set `npm run db:seed` loads (and `npm run dev` loads into an empty database): agents you can
// sign in as, and claims a reader can argue about, with evidence, comments and votes. Written for this
// project; the figures in it are well-known public facts, rounded.
//
// Big enough to show every feature on a first run (docs/features/consensus-ui.md, Demo data): fourteen
// regular voters with two viewpoints that part ways on a few contested claims, so the viewpoint model
// finds claims both sides agree on and claims that divide them; three newcomers with too little history
// for it, whose claims the votes alone decide; claims that never got enough votes. Every one of them
// joined days or weeks ago and verified their address, so their votes have standing
// (docs/features/consensus.md#standing) with the default settings. Beside them: automated agents, whose
// votes are shown as the agents' view and never decide (on one claim they disagree with the people), and
// two accounts without standing yet (one joined today, one never verified), whose votes the claim page
// names as not counted. No status and no outcome is written here: the seed casts the votes and the
// service's own rules decide the rest.
export const DEMO_PASSWORD = "Demo-pass1";
export const DEMO_EMAIL_DOMAIN = "demo.example.org";

/** Two viewpoints, "a" and "b": they agree on most facts and part ways on a few contested claims. */
export type Viewpoint = "a" | "b";

export interface DemoAgent {
  username: string;
  display_name: string;
  /** Regular voters vote on every claim with a `crowd` (but their own), as their viewpoint sees it. */
  viewpoint?: Viewpoint;
  /** How far a regular's votes go from "unsure" towards their viewpoint's value (1 = all the way). */
  conviction?: number;
  /** Days since the account was made (it is made backdated so); 0 = today. */
  joinedDaysAgo: number;
  /** Whether its address is verified. */
  verified: boolean;
  /** Software acting on its own: its votes are the agents' view. */
  automated?: boolean;
}

export const DEMO_AGENTS: DemoAgent[] = [
  { username: "ada", display_name: "Ada (demo)", viewpoint: "a", conviction: 1, joinedDaysAgo: 90, verified: true },
  { username: "grace", display_name: "Grace (demo)", viewpoint: "b", conviction: 0.95, joinedDaysAgo: 85, verified: true },
  { username: "alan", display_name: "Alan (demo)", viewpoint: "a", conviction: 0.85, joinedDaysAgo: 80, verified: true },
  { username: "katherine", display_name: "Katherine (demo)", viewpoint: "b", conviction: 1, joinedDaysAgo: 75, verified: true },
  { username: "edsger", display_name: "Edsger (demo)", viewpoint: "a", conviction: 0.9, joinedDaysAgo: 70, verified: true },
  { username: "barbara", display_name: "Barbara (demo)", viewpoint: "b", conviction: 0.8, joinedDaysAgo: 65, verified: true },
  { username: "donald", display_name: "Donald (demo)", viewpoint: "a", conviction: 0.95, joinedDaysAgo: 60, verified: true },
  { username: "frances", display_name: "Frances (demo)", viewpoint: "b", conviction: 0.9, joinedDaysAgo: 55, verified: true },
  { username: "john", display_name: "John (demo)", viewpoint: "a", conviction: 0.6, joinedDaysAgo: 50, verified: true },
  { username: "margaret", display_name: "Margaret (demo)", viewpoint: "b", conviction: 1, joinedDaysAgo: 45, verified: true },
  { username: "dennis", display_name: "Dennis (demo)", viewpoint: "a", conviction: 0.8, joinedDaysAgo: 40, verified: true },
  { username: "radia", display_name: "Radia (demo)", viewpoint: "b", conviction: 0.85, joinedDaysAgo: 35, verified: true },
  { username: "tim", display_name: "Tim (demo)", viewpoint: "a", conviction: 0.9, joinedDaysAgo: 30, verified: true },
  { username: "hedy", display_name: "Hedy (demo)", viewpoint: "b", conviction: 0.7, joinedDaysAgo: 25, verified: true },
  // Newcomers: a handful of votes each (five: enough for standing), too few for the viewpoint model to place them.
  { username: "mary", display_name: "Mary (demo)", joinedDaysAgo: 6, verified: true },
  { username: "ken", display_name: "Ken (demo)", joinedDaysAgo: 4, verified: true },
  { username: "joan", display_name: "Joan (demo)", joinedDaysAgo: 3, verified: true },
  // Automated agents: their votes are shown beside the people's, never in the status.
  { username: "factbot", display_name: "Factbot (demo agent)", joinedDaysAgo: 30, verified: true, automated: true },
  { username: "scout", display_name: "Scout (demo agent)", joinedDaysAgo: 12, verified: true, automated: true },
  { username: "summarist", display_name: "Summarist (demo agent)", joinedDaysAgo: 2, verified: false, automated: true },
  // Without standing yet: joined today (verified), and never verified.
  { username: "sam", display_name: "Sam (demo)", joinedDaysAgo: 0, verified: true },
  { username: "riley", display_name: "Riley (demo)", joinedDaysAgo: 40, verified: false },
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
  /** How true each viewpoint thinks it is (0–1): every regular voter but the author votes near it. */
  crowd?: Record<Viewpoint, number>;
  /** Further votes, username → value (0–1). Authors do not vote on their own claims. */
  votes?: Record<string, number>;
  evidence?: DemoEvidence[];
  comments?: DemoComment[];
}

/** A small fixed offset per voter and claim (−0.04 … +0.04), so that votes are not all alike. */
function jitter(username: string, key: string): number {
  let h = 2166136261;
  for (const ch of `${username}/${key}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return ((h % 9) - 4) / 100;
}

/** A demo agent's email address. */
export const demoEmail = (username: string) => `${username}@${DEMO_EMAIL_DOMAIN}`;

/** How to sign in as a demo agent (printed by `npm run dev` and `npm run db:seed`). */
export function demoSignInText(): string {
  const names = DEMO_AGENTS.map((a) => a.username).join(", ");
  return `Demo agents (${names}): sign in as ${demoEmail("ada")} with password ${DEMO_PASSWORD}`;
}

/**
 * Every vote on a claim, in the order they are cast: the regular voters (starting at a different one
 * for each claim, so that nobody always votes first), then the listed votes; never the author's.
 */
export function demoVotes(claim: DemoClaim, index: number): [username: string, value: number][] {
  const regulars = DEMO_AGENTS.filter((a) => a.viewpoint);
  const order = [...regulars.slice(index % regulars.length), ...regulars.slice(0, index % regulars.length)];
  const votes: [string, number][] = [];
  if (claim.crowd) {
    for (const a of order) {
      const toward = claim.crowd[a.viewpoint!] - 0.5;
      const value = 0.5 + toward * (a.conviction ?? 1) + jitter(a.username, claim.key);
      votes.push([a.username, Math.round(Math.min(0.99, Math.max(0.01, value)) * 100) / 100]);
    }
  }
  for (const [username, value] of Object.entries(claim.votes ?? {})) votes.push([username, value]);
  return votes.filter(([username]) => username !== claim.by);
}

export const DEMO_CLAIMS: DemoClaim[] = [
  {
    key: "boiling",
    by: "ada",
    statement: "Water boils at a lower temperature at the top of a high mountain than at sea level.",
    tags: ["physics"],
    crowd: { a: 0.97, b: 0.97 },
    votes: { mary: 0.95, ken: 0.93, joan: 0.96, factbot: 0.99 },
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
    crowd: { a: 0.06, b: 0.06 },
    // The agents repeat the popular belief; the people who checked do not.
    votes: { factbot: 0.85, scout: 0.8, summarist: 0.9 },
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
    crowd: { a: 0.03, b: 0.03 },
    evidence: [
      { by: "edsger", position: "opposes", content_type: "text", content: "Tall buildings are struck over and over: the Empire State Building takes around twenty strikes a year.", up: ["ada", "grace", "alan"] },
    ],
  },
  {
    key: "brain-10",
    by: "edsger",
    statement: "People use only ten percent of their brains.",
    tags: ["biology", "health"],
    votes: { ada: 0.04, grace: 0.06, alan: 0.1, margaret: 0.08 },
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
    crowd: { a: 0.92, b: 0.1 },
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
    crowd: { a: 0.62, b: 0.68 },
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
    crowd: { a: 0.66, b: 0.6 },
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
    crowd: { a: 0.3, b: 0.36 },
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
    crowd: { a: 0.7, b: 0.64 },
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
    votes: { grace: 0.3, alan: 0.35, katherine: 0.25, mary: 0.5, ken: 0.45, joan: 0.4 },
    evidence: [
      { by: "katherine", position: "opposes", content_type: "text", content: "Randomised trials that assigned people to eat or skip breakfast found little difference in weight change.", up: ["grace", "alan"] },
    ],
  },
  {
    key: "vitamin-c",
    by: "grace",
    statement: "Taking vitamin C regularly prevents the common cold.",
    tags: ["health"],
    crowd: { a: 0.05, b: 0.05 },
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
    crowd: { a: 0.95, b: 0.95 },
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
    crowd: { a: 0.94, b: 0.96 },
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
    crowd: { a: 0.1, b: 0.88 },
  },
  {
    key: "nuclear",
    by: "katherine",
    statement: "Per unit of electricity produced, nuclear power has caused fewer deaths than coal.",
    tags: ["energy"],
    complexity_tier: "moderate",
    crowd: { a: 0.96, b: 0.94 },
    evidence: [
      { by: "ada", position: "supports", content_type: "text", content: "Estimates that include air pollution put coal at more than twenty deaths per terawatt-hour and nuclear well below one, accidents included.", up: ["grace", "alan", "edsger"] },
    ],
  },
  {
    key: "solar-cheapest",
    by: "grace",
    statement: "New utility-scale solar is now among the cheapest sources of new electricity in many countries.",
    tags: ["energy", "economics"],
    crowd: { a: 0.95, b: 0.95 },
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
    crowd: { a: 0.1, b: 0.92 },
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
    crowd: { a: 0.64, b: 0.6 },
  },
  {
    key: "napoleon",
    by: "alan",
    statement: "Napoleon Bonaparte was unusually short for a Frenchman of his time.",
    tags: ["history"],
    crowd: { a: 0.05, b: 0.04 },
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
    crowd: { a: 0.03, b: 0.04 },
    evidence: [
      { by: "alan", position: "opposes", content_type: "text", content: "No horned helmet has been found from the Viking age; the image comes from 19th-century costume design for opera.", up: ["ada", "grace"] },
    ],
  },
  {
    key: "moon-dark-side",
    by: "grace",
    statement: "The far side of the Moon is always dark.",
    tags: ["space", "physics"],
    crowd: { a: 0.03, b: 0.03 },
    evidence: [
      { by: "ada", position: "opposes", content_type: "text", content: "The far side gets as much sunlight as the near side; it is only always turned away from Earth. At new moon it is fully lit.", up: ["alan", "edsger"] },
    ],
  },
  {
    key: "mars-water",
    by: "edsger",
    statement: "There is water ice on Mars today.",
    tags: ["space"],
    crowd: { a: 0.97, b: 0.97 },
    votes: { mary: 0.9, ken: 0.92, joan: 0.94, factbot: 0.97, scout: 0.95 },
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
    crowd: { a: 0.92, b: 0.1 },
    evidence: [
      { by: "alan", position: "neutral", content_type: "text", content: "Cheaper programming has historically increased demand for software, and with it for programmers, as with compilers and high-level languages.", up: ["grace", "edsger"] },
    ],
    comments: [
      { by: "grace", content: "The work will change more than the headcount, I think." },
      { by: "edsger", content: "Predictions with \"within ten years\" have a poor track record.", replies: [{ by: "ada", content: "Which is exactly why it is worth voting on." }] },
    ],
  },
  {
    key: "rent-control",
    by: "frances",
    statement: "Rent control makes housing more affordable for a city's renters over the long run.",
    tags: ["economics", "housing"],
    complexity_tier: "complex",
    crowd: { a: 0.08, b: 0.9 },
    evidence: [
      { by: "donald", position: "opposes", content_type: "text", content: "Studies of San Francisco's 1994 expansion found landlords of covered buildings converted or sold units, shrinking the rental supply.", up: ["ada", "tim"], down: ["margaret"] },
      { by: "margaret", position: "supports", content_type: "text", content: "The same studies found that tenants in covered units were much more likely to stay in their homes and neighbourhoods.", up: ["katherine", "hedy"] },
    ],
    comments: [
      { by: "john", content: "Affordable for whom? Sitting tenants and newcomers come out very differently.", replies: [{ by: "frances", content: "That is the whole argument, yes." }] },
    ],
  },
  {
    key: "four-day-week",
    by: "barbara",
    statement: "A four-day working week with the same pay keeps output at the level of a five-day week.",
    tags: ["work", "economics"],
    complexity_tier: "complex",
    crowd: { a: 0.12, b: 0.9 },
    evidence: [
      { by: "radia", position: "supports", content_type: "text", content: "In the 2022 UK pilot most of the 61 companies kept the four-day week afterwards and reported steady revenue.", up: ["grace", "barbara"] },
      { by: "dennis", position: "opposes", content_type: "text", content: "The companies chose to take part, and revenue is not output per hour: a self-selected pilot cannot settle it.", up: ["alan", "edsger"] },
    ],
  },
  {
    key: "honey",
    by: "tim",
    statement: "Honey sealed in a jar does not spoil, even after many years.",
    tags: ["nutrition", "biology"],
    votes: { hedy: 0.9, donald: 0.85, mary: 0.95, ken: 0.9, joan: 0.88 },
    evidence: [
      { by: "hedy", position: "supports", content_type: "text", content: "Its low water content and acidity keep microbes from growing; it may crystallise, which is harmless.", up: ["mary"] },
    ],
    comments: [{ by: "mary", content: "Mine crystallised, and warming the jar fixed it." }],
  },
  {
    key: "bulls-red",
    by: "radia",
    statement: "Bulls are enraged by the colour red.",
    tags: ["biology"],
    // Sam and Riley vote too, but have no standing yet: the page names their votes as not counted.
    votes: { barbara: 0.08, john: 0.15, mary: 0.05, ken: 0.1, joan: 0.12, factbot: 0.1, sam: 0.95, riley: 0.9 },
    evidence: [
      { by: "barbara", position: "opposes", content_type: "text", content: "Cattle are red-green colour-blind; bulls charge at the cape's movement, whatever its colour.", up: ["ken", "joan"] },
    ],
  },
  {
    key: "octopus",
    by: "dennis",
    statement: "An octopus has three hearts.",
    tags: ["biology"],
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
