// Words and question templates for the demo markets: real-sounding entities per category and
// sub-category, so the list, search and detail pages look like a live venue (no lorem ipsum).
import type { Category } from "../markets/schemas";
import type { Rng } from "./prng";

export interface QuestionSpec {
  question: string;
  type: "BINARY" | "MULTI";
  /** MULTI only: 3..6 outcome names. */
  outcomes?: string[];
  /** What "Yes" (or the winning outcome) means, one or two sentences for the description. */
  rule: string;
  source: string;
  tags: string[];
  priceMarket?: Record<string, unknown>;
}

type Template = (r: Rng, ends: Date) => QuestionSpec;

/** A market's description from its question's spec and its end (unix ms): the rule, the close, the source, the cancel rule. */
export function marketDescription(spec: QuestionSpec, ends: number): string {
  const closes = `Trading closes ${longDate(new Date(ends))} at ${new Date(ends).toISOString().slice(11, 16)} UTC.`;
  const cancelRule =
    "If the event is cancelled, postponed past the resolution date or the source becomes unavailable, the market is cancelled and every outcome pays out equally.";
  return spec.type === "BINARY"
    ? `${spec.rule} Otherwise it resolves "No". ${closes} Resolution source: ${spec.source}. ${cancelRule}`
    : `${spec.rule} Outcomes: ${spec.outcomes!.join(", ")}. ${closes} Resolution source: ${spec.source}. ${cancelRule}`;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
export const longDate = (d: Date) => `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
const monthYear = (d: Date) => `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
// Not toLocaleString: ICU formatting is slow enough to matter when generating 100k markets.
const usd = (n: number) => "$" + String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
const multi = (r: Rng, pool: readonly string[], min = 3, max = 6) => r.sample(pool, r.int(min, Math.min(max, pool.length)));
const withOther = (names: string[]) => [...names.slice(0, -1), "Other"];

const COINS = [
  { name: "Bitcoin", sym: "BTC", sub: "Bitcoin", levels: [80000, 90000, 100000, 110000, 120000, 150000] },
  { name: "Ethereum", sym: "ETH", sub: "Ethereum", levels: [2500, 3000, 3500, 4000, 5000, 6000] },
  { name: "Solana", sym: "SOL", sub: "Solana", levels: [120, 150, 200, 250, 300] },
];
const NBA = [
  "Boston Celtics",
  "Denver Nuggets",
  "Oklahoma City Thunder",
  "Milwaukee Bucks",
  "New York Knicks",
  "Minnesota Timberwolves",
  "Dallas Mavericks",
  "Cleveland Cavaliers",
  "Golden State Warriors",
  "Los Angeles Lakers",
];
const NFL = [
  "Kansas City Chiefs",
  "Philadelphia Eagles",
  "Baltimore Ravens",
  "Detroit Lions",
  "San Francisco 49ers",
  "Buffalo Bills",
  "Houston Texans",
  "Green Bay Packers",
];
const SOCCER = ["Real Madrid", "Manchester City", "Arsenal", "Liverpool", "Bayern Munich", "Barcelona", "Inter Milan", "Paris Saint-Germain"];
const TENNIS = ["Jannik Sinner", "Carlos Alcaraz", "Novak Djokovic", "Alexander Zverev", "Daniil Medvedev", "Taylor Fritz"];
const SLAMS = ["Australian Open", "Roland Garros", "Wimbledon", "US Open"];
const US_STATES = ["Georgia", "Arizona", "Pennsylvania", "Michigan", "Wisconsin", "Nevada", "North Carolina", "Ohio", "Texas", "Maine"];
const EU_COUNTRIES = ["Germany", "France", "Italy", "Spain", "the Netherlands", "Poland", "Belgium", "Portugal", "Austria", "Sweden"];
const EU_PARTIES = ["Centre-right bloc", "Social Democrats", "Greens", "Liberals", "Nationalist right", "Left alliance"];
const FILMS = ["Starfall Protocol", "The Last Lighthouse", "Neon Harbor", "Paper Kingdoms", "Midnight Cartographer", "Iron Meridian", "A Quiet Orbit"];
const ARTISTS = ["Taylor Swift", "Bad Bunny", "Billie Eilish", "Kendrick Lamar", "Dua Lipa", "The Weeknd", "Olivia Rodrigo", "SZA"];
const SHOWS = ["The Bear", "Severance", "Shogun", "The White Lotus", "Abbott Elementary", "Slow Horses"];
const ACTORS = ["Zendaya", "Cillian Murphy", "Emma Stone", "Timothée Chalamet", "Florence Pugh", "Austin Butler", "Lily Gladstone", "Colman Domingo"];
const AI_LABS = ["OpenAI", "Google DeepMind", "Anthropic", "Meta", "Mistral", "xAI"];
const SPACE = ["SpaceX", "Blue Origin", "NASA", "ESA", "Rocket Lab"];
const STOCKS = [
  { name: "Nvidia", tic: "NVDA", levels: [120, 150, 180, 200] },
  { name: "Apple", tic: "AAPL", levels: [200, 225, 250, 275] },
  { name: "Tesla", tic: "TSLA", levels: [200, 250, 300, 400] },
  { name: "Microsoft", tic: "MSFT", levels: [400, 450, 500] },
];
const CENTRAL_BANKS = [
  { bank: "Federal Reserve", short: "Fed", rate: "federal funds target range" },
  { bank: "European Central Bank", short: "ECB", rate: "deposit facility rate" },
  { bank: "Bank of England", short: "BoE", rate: "Bank Rate" },
  { bank: "Bank of Japan", short: "BoJ", rate: "short-term policy rate" },
];
const CITIES = ["New York", "London", "Tokyo", "Chicago", "Paris", "Sydney", "Toronto", "Berlin"];
const TECH = ["Apple", "Google", "Microsoft", "Amazon", "Meta", "Samsung"];

const T = (templates: Template[]) => templates;

/** Sub-categories per category, each with its question templates. */
export const CATALOGUE: Record<Category, Record<string, Template[]>> = {
  CRYPTO: Object.fromEntries(
    COINS.map((c) => [
      c.sub,
      T([
        (r, e) => {
          const level = r.pick(c.levels);
          return {
            question: `Will ${c.name} close above ${usd(level)} on ${longDate(e)}?`,
            type: "BINARY",
            rule: `Resolves "Yes" if the ${c.sym}/USD daily close on ${longDate(e)} (00:00 UTC candle) is strictly above ${usd(level)}.`,
            source: `Coinbase ${c.sym}-USD daily candle`,
            tags: [c.name.toLowerCase(), c.sym.toLowerCase(), "price"],
            priceMarket: { asset: c.sym, quote: "USD", threshold: String(level), direction: "ABOVE", reference: `Coinbase ${c.sym}-USD close` },
          };
        },
        (r, e) => {
          const lv = c.levels.slice(0, 4);
          const names = [
            `Below ${usd(lv[0])}`,
            `${usd(lv[0])}–${usd(lv[1])}`,
            `${usd(lv[1])}–${usd(lv[2])}`,
            `${usd(lv[2])}–${usd(lv[3])}`,
            `Above ${usd(lv[3])}`,
          ];
          return {
            question: `What will ${c.name} trade at on ${longDate(e)}?`,
            type: "MULTI",
            outcomes: names,
            rule: `Resolves to the range containing the ${c.sym}/USD price at 16:00 UTC on ${longDate(e)}.`,
            source: `CoinGecko ${c.sym} spot price`,
            tags: [c.name.toLowerCase(), "price-range"],
          };
        },
        (r, e) => ({
          question: `Will ${c.name} hit a new all-time high by ${longDate(e)}?`,
          type: "BINARY",
          rule: `Resolves "Yes" if ${c.sym} trades above its previous all-time high on any major exchange before ${longDate(e)}.`,
          source: "Coinbase, Binance and Kraken trade data",
          tags: [c.name.toLowerCase(), "ath"],
        }),
        ...(c.sym === "ETH"
          ? [
              (r: Rng, e: Date): QuestionSpec => ({
                question: `Will spot ${c.name} ETF net inflows exceed $1B in ${monthYear(e)}?`,
                type: "BINARY",
                rule: `Resolves "Yes" if the sum of daily net flows of US spot ether ETFs over ${monthYear(e)} exceeds $1 billion.`,
                source: "Issuer flow reports compiled by Farside Investors",
                tags: ["ethereum", "etf"],
              }),
            ]
          : []),
      ]),
    ]),
  ),
  SPORTS: {
    NBA: T([
      (r, e) => ({
        question: `Who will win the ${e.getUTCFullYear()} NBA Finals?`,
        type: "MULTI",
        outcomes: withOther(multi(r, NBA, 4, 6)),
        rule: `Resolves to the team that wins the ${e.getUTCFullYear()} NBA Finals.`,
        source: "NBA.com official results",
        tags: ["nba", "basketball", "finals"],
      }),
      (r, e) => {
        const [a, b] = r.sample(NBA, 2);
        return {
          question: `Will the ${a} beat the ${b} on ${longDate(e)}?`,
          type: "BINARY",
          rule: `Resolves "Yes" if the ${a} win the regular-season game against the ${b} scheduled for ${longDate(e)}, overtime included.`,
          source: "NBA.com official box score",
          tags: ["nba", "basketball"],
        };
      },
    ]),
    NFL: T([
      (r, e) => ({
        question: `Which team will win Super Bowl ${["LX", "LXI", "LXII"][r.int(0, 2)]}?`,
        type: "MULTI",
        outcomes: withOther(multi(r, NFL, 4, 6)),
        rule: "Resolves to the winner of the Super Bowl as recorded by the NFL.",
        source: "NFL.com official results",
        tags: ["nfl", "football", "super-bowl"],
      }),
      (r, e) => {
        const team = r.pick(NFL);
        return {
          question: `Will the ${team} make the playoffs this season?`,
          type: "BINARY",
          rule: `Resolves "Yes" if the ${team} clinch a playoff berth by the end of the regular season.`,
          source: "NFL.com standings",
          tags: ["nfl", "playoffs"],
        };
      },
    ]),
    Soccer: T([
      (r, e) => ({
        question: `Who will win the ${e.getUTCFullYear()} UEFA Champions League?`,
        type: "MULTI",
        outcomes: withOther(multi(r, SOCCER, 4, 6)),
        rule: "Resolves to the club that wins the Champions League final.",
        source: "UEFA.com official results",
        tags: ["soccer", "champions-league"],
      }),
      (r, e) => {
        const [a, b] = r.sample(SOCCER, 2);
        return {
          question: `${a} vs ${b}: who wins on ${longDate(e)}?`,
          type: "MULTI",
          outcomes: [a, "Draw", b],
          rule: "Resolves to the result after 90 minutes plus stoppage time; extra time and penalties do not count.",
          source: "Official match report",
          tags: ["soccer", "match"],
        };
      },
    ]),
    Tennis: T([
      (r, e) => {
        const slam = r.pick(SLAMS);
        return {
          question: `Who will win the ${e.getUTCFullYear()} ${slam} men's singles title?`,
          type: "MULTI",
          outcomes: withOther(multi(r, TENNIS, 4, 6)),
          rule: `Resolves to the winner of the ${slam} men's singles final.`,
          source: "ATP Tour official results",
          tags: ["tennis", slam.toLowerCase().replace(/ /g, "-")],
        };
      },
      (r, e) => {
        const p = r.pick(TENNIS);
        return {
          question: `Will ${p} finish the year ranked world No. 1?`,
          type: "BINARY",
          rule: `Resolves "Yes" if ${p} is No. 1 in the final ATP ranking of the year.`,
          source: "ATP rankings",
          tags: ["tennis", "rankings"],
        };
      },
    ]),
  },
  POLITICS: {
    "US Elections": T([
      (r, e) => {
        const st = r.pick(US_STATES);
        return {
          question: `Which party will win the ${st} Senate race?`,
          type: "BINARY",
          rule: `Resolves "Yes" if the Democratic candidate is certified the winner of the next ${st} U.S. Senate election; "No" if any other candidate wins.`,
          source: `${st} Secretary of State certified results`,
          tags: ["us-elections", "senate", st.toLowerCase().replace(/ /g, "-")],
        };
      },
      (r, e) => ({
        question: `Will voter turnout in the ${e.getUTCFullYear()} midterms exceed 50%?`,
        type: "BINARY",
        rule: 'Resolves "Yes" if the turnout of the voting-eligible population exceeds 50% per the U.S. Elections Project.',
        source: "U.S. Elections Project",
        tags: ["us-elections", "turnout"],
      }),
      (r, e) => {
        const st = r.pick(US_STATES);
        return {
          question: `Who will win the ${st} gubernatorial primary?`,
          type: "MULTI",
          outcomes: withOther(r.sample(["Maria Alvarez", "James Whitfield", "Dana Okafor", "Robert Lindqvist", "Priya Raman", "Tom Becker"], r.int(3, 5))),
          rule: `Resolves to the candidate certified as the winner of the ${st} primary.`,
          source: `${st} Secretary of State`,
          tags: ["us-elections", "governor"],
        };
      },
    ]),
    Europe: T([
      (r, e) => {
        const c = r.pick(EU_COUNTRIES);
        return {
          question: `Will ${c} hold a snap election before ${longDate(e)}?`,
          type: "BINARY",
          rule: `Resolves "Yes" if a national parliamentary election takes place in ${c} before ${longDate(e)}.`,
          source: `Official electoral commission of ${c}`,
          tags: ["europe", "elections"],
        };
      },
      (r, e) => {
        const c = r.pick(EU_COUNTRIES);
        return {
          question: `Which bloc will win the most seats in ${c}'s next election?`,
          type: "MULTI",
          outcomes: multi(r, EU_PARTIES, 3, 5),
          rule: `Resolves to the bloc holding the most seats after the official count in ${c}.`,
          source: `Official electoral commission of ${c}`,
          tags: ["europe", "parliament"],
        };
      },
    ]),
    Geopolitics: T([
      (r, e) => ({
        question: `Will a ceasefire agreement be signed in ${r.pick(["Sudan", "the Sahel", "Myanmar", "Yemen"])} by ${longDate(e)}?`,
        type: "BINARY",
        rule: 'Resolves "Yes" if the main warring parties sign a publicly announced ceasefire agreement before the deadline.',
        source: "Reporting by Reuters, AP and the UN",
        tags: ["geopolitics", "ceasefire"],
      }),
      (r, e) => ({
        question: `Will the G20 summit issue a joint leaders' declaration in ${e.getUTCFullYear()}?`,
        type: "BINARY",
        rule: 'Resolves "Yes" if the summit ends with a joint declaration endorsed by all members.',
        source: "Official G20 communiqué",
        tags: ["geopolitics", "g20"],
      }),
    ]),
  },
  ENTERTAINMENT: {
    "Box Office": T([
      (r, e) => {
        const f = r.pick(FILMS);
        const m = r.pick([50, 75, 100, 150]);
        return {
          question: `Will "${f}" gross over $${m}M in its opening weekend?`,
          type: "BINARY",
          rule: `Resolves "Yes" if the domestic three-day opening weekend gross of "${f}" exceeds $${m} million.`,
          source: "Box Office Mojo",
          tags: ["box-office", "movies"],
        };
      },
      (r, e) => {
        const f = r.pick(FILMS);
        const m = r.pick([300, 500, 750, 1000]);
        return {
          question: `Will "${f}" pass $${m}M at the worldwide box office by ${longDate(e)}?`,
          type: "BINARY",
          rule: `Resolves "Yes" if the cumulative worldwide gross of "${f}" exceeds $${m} million on or before ${longDate(e)}.`,
          source: "Box Office Mojo",
          tags: ["box-office", "movies"],
        };
      },
      (r, e) => ({
        question: `Which film will top the domestic box office on the weekend of ${longDate(e)}?`,
        type: "MULTI",
        outcomes: withOther(multi(r, FILMS, 4, 6)),
        rule: `Resolves to the film with the highest domestic three-day gross for the weekend ending ${longDate(e)}.`,
        source: "Box Office Mojo",
        tags: ["box-office", "movies"],
      }),
    ]),
    Awards: T([
      (r, e) => ({
        question: `Which film will win Best Picture at the ${e.getUTCFullYear()} Academy Awards?`,
        type: "MULTI",
        outcomes: multi(r, FILMS, 4, 6),
        rule: "Resolves to the film announced as Best Picture at the ceremony.",
        source: "Academy of Motion Picture Arts and Sciences",
        tags: ["oscars", "awards"],
      }),
      (r, e) => {
        const a = r.pick(ARTISTS);
        return {
          question: `Will ${a} win Album of the Year at the Grammys?`,
          type: "BINARY",
          rule: `Resolves "Yes" if ${a} wins Album of the Year at the next Grammy Awards.`,
          source: "Recording Academy",
          tags: ["grammys", "music"],
        };
      },
      (r, e) => {
        const a = r.pick(ACTORS);
        return {
          question: `Will ${a} win an Oscar at the ${e.getUTCFullYear()} Academy Awards?`,
          type: "BINARY",
          rule: `Resolves "Yes" if ${a} wins any acting Academy Award at the ${e.getUTCFullYear()} ceremony.`,
          source: "Academy of Motion Picture Arts and Sciences",
          tags: ["oscars", "awards"],
        };
      },
    ]),
    Music: T([
      (r, e) => ({
        question: `Who will have the most-streamed song on Spotify in ${monthYear(e)}?`,
        type: "MULTI",
        outcomes: withOther(multi(r, ARTISTS, 4, 6)),
        rule: "Resolves to the artist of the song with the most global Spotify streams over the month.",
        source: "Spotify Charts",
        tags: ["music", "streaming"],
      }),
      (r, e) => {
        const a = r.pick(ARTISTS);
        return {
          question: `Will ${a} have a No. 1 song on the Billboard Hot 100 by ${longDate(e)}?`,
          type: "BINARY",
          rule: `Resolves "Yes" if a song credited to ${a} tops the Billboard Hot 100 in any chart week dated on or before ${longDate(e)}.`,
          source: "Billboard",
          tags: ["music", "charts"],
        };
      },
      (r, e) => {
        const a = r.pick(ARTISTS);
        return {
          question: `Will ${a} release a new studio album before ${longDate(e)}?`,
          type: "BINARY",
          rule: `Resolves "Yes" if ${a} releases a new full-length studio album on major streaming services before ${longDate(e)}.`,
          source: "Official artist announcements",
          tags: ["music", "albums"],
        };
      },
    ]),
    TV: T([
      (r, e) => {
        const s = r.pick(SHOWS);
        return {
          question: `Will "${s}" win Outstanding Series at the Emmys?`,
          type: "BINARY",
          rule: `Resolves "Yes" if "${s}" wins its Outstanding Series category at the next Primetime Emmy Awards.`,
          source: "Television Academy",
          tags: ["emmys", "tv"],
        };
      },
      (r, e) => {
        const s = r.pick(SHOWS);
        return {
          question: `Will "${s}" be renewed for another season by ${longDate(e)}?`,
          type: "BINARY",
          rule: `Resolves "Yes" if the network or streamer officially announces another season of "${s}" on or before ${longDate(e)}.`,
          source: "Network press releases",
          tags: ["tv", "renewals"],
        };
      },
      (r, e) => ({
        question: `Which series will win Outstanding Drama Series at the ${e.getUTCFullYear()} Emmys?`,
        type: "MULTI",
        outcomes: multi(r, SHOWS, 4, 6),
        rule: `Resolves to the series named Outstanding Drama Series at the ${e.getUTCFullYear()} Primetime Emmy Awards.`,
        source: "Television Academy",
        tags: ["emmys", "tv"],
      }),
    ]),
  },
  SCIENCE: {
    Space: T([
      (r, e) => {
        const org = r.pick(SPACE);
        return {
          question: `Will ${org} complete a crewed launch before ${longDate(e)}?`,
          type: "BINARY",
          rule: `Resolves "Yes" if ${org} launches a mission with humans on board that reaches space before ${longDate(e)}.`,
          source: `${org} mission announcements`,
          tags: ["space", org.toLowerCase().replace(/ /g, "-")],
        };
      },
      (r, e) => ({
        question: `How many orbital launches will SpaceX make in ${monthYear(e)}?`,
        type: "MULTI",
        outcomes: ["Fewer than 10", "10–12", "13–15", "16–18", "More than 18"],
        rule: "Resolves to the range containing the number of successful SpaceX orbital launches in the month.",
        source: "Jonathan's Space Report launch log",
        tags: ["space", "spacex"],
      }),
    ]),
    AI: T([
      (r, e) => {
        const lab = r.pick(AI_LABS);
        return {
          question: `Will ${lab} release a new frontier model before ${longDate(e)}?`,
          type: "BINARY",
          rule: `Resolves "Yes" if ${lab} makes a new flagship model generally available before ${longDate(e)}.`,
          source: `${lab} official announcements`,
          tags: ["ai", "models"],
        };
      },
      (r, e) => ({
        question: `Which lab will top the LMArena text leaderboard on ${longDate(e)}?`,
        type: "MULTI",
        outcomes: withOther(multi(r, AI_LABS, 4, 6)),
        rule: "Resolves to the organisation of the first-ranked model on the leaderboard at 12:00 UTC.",
        source: "LMArena leaderboard snapshot",
        tags: ["ai", "benchmarks"],
      }),
    ]),
    Climate: T([
      (r, e) => ({
        question: `Will ${e.getUTCFullYear()} be the hottest year on record?`,
        type: "BINARY",
        rule: 'Resolves "Yes" if the global mean surface temperature for the year is the highest in the record.',
        source: "Copernicus Climate Change Service annual bulletin",
        tags: ["climate", "temperature"],
      }),
      (r, e) => ({
        question: `Will Arctic sea ice extent fall below 4 million km² this September?`,
        type: "BINARY",
        rule: 'Resolves "Yes" if the September minimum daily extent is below 4.0 million square kilometres.',
        source: "NSIDC Sea Ice Index",
        tags: ["climate", "arctic"],
      }),
    ]),
    Health: T([
      (r, e) => ({
        question: `Will the FDA approve a new Alzheimer's drug before ${longDate(e)}?`,
        type: "BINARY",
        rule: 'Resolves "Yes" if the FDA grants approval to a new molecular entity for Alzheimer\'s disease before the deadline.',
        source: "FDA Novel Drug Approvals list",
        tags: ["health", "fda"],
      }),
    ]),
  },
  FINANCE: {
    Stocks: T([
      (r, e) => {
        const s = r.pick(STOCKS);
        const lv = r.pick(s.levels);
        return {
          question: `Will ${s.name} (${s.tic}) close above $${lv} on ${longDate(e)}?`,
          type: "BINARY",
          rule: `Resolves "Yes" if the official Nasdaq closing price of ${s.tic} on ${longDate(e)} is above $${lv}.`,
          source: "Nasdaq official closing price",
          tags: ["stocks", s.tic.toLowerCase()],
          priceMarket: { asset: s.tic, quote: "USD", threshold: String(lv), direction: "ABOVE", reference: "Nasdaq close" },
        };
      },
      (r, e) => ({
        question: `Which company will be the world's largest by market cap on ${longDate(e)}?`,
        type: "MULTI",
        outcomes: ["Nvidia", "Apple", "Microsoft", "Alphabet", "Other"],
        rule: "Resolves to the company with the largest market capitalisation at the close of US trading.",
        source: "companiesmarketcap data from exchange closes",
        tags: ["stocks", "market-cap"],
      }),
    ]),
    Rates: T([
      (r, e) => {
        const cb = r.pick(CENTRAL_BANKS);
        return {
          question: `What will the ${cb.short} decide at its ${monthYear(e)} meeting?`,
          type: "MULTI",
          outcomes: ["Cut 50 bps or more", "Cut 25 bps", "No change", "Hike 25 bps or more"],
          rule: `Resolves to the change in the ${cb.rate} announced by the ${cb.bank} at that meeting.`,
          source: `${cb.bank} policy statement`,
          tags: ["rates", cb.short.toLowerCase()],
        };
      },
      (r, e) => ({
        question: `Will US CPI inflation be above 3% for ${monthYear(e)}?`,
        type: "BINARY",
        rule: 'Resolves "Yes" if the year-over-year headline CPI-U for the month, as first published, is above 3.0%.',
        source: "U.S. Bureau of Labor Statistics",
        tags: ["inflation", "cpi"],
      }),
    ]),
    Commodities: T([
      (r, e) => {
        const [name, lv] = r.pick([
          ["Gold", 3000],
          ["Gold", 3500],
          ["Brent crude", 80],
          ["WTI crude", 70],
          ["Silver", 40],
        ] as const);
        return {
          question: `Will ${name} settle above $${lv} on ${longDate(e)}?`,
          type: "BINARY",
          rule: `Resolves "Yes" if the front-month ${name} futures settlement on ${longDate(e)} is above $${lv}.`,
          source: "CME Group / ICE settlement prices",
          tags: ["commodities", name.toLowerCase().replace(/ /g, "-")],
          priceMarket: { asset: name, quote: "USD", threshold: String(lv), direction: "ABOVE", reference: "front-month settlement" },
        };
      },
    ]),
    FX: T([
      (r, e) => {
        const [pair, lv] = r.pick([
          ["EUR/USD", "1.15"],
          ["USD/JPY", "150"],
          ["GBP/USD", "1.30"],
        ] as const);
        return {
          question: `Will ${pair} be above ${lv} at the end of ${monthYear(e)}?`,
          type: "BINARY",
          rule: `Resolves "Yes" if the ${pair} WM/Reuters 4pm London fix on the last business day of the month is above ${lv}.`,
          source: "WM/Reuters benchmark rates",
          tags: ["fx", pair.toLowerCase().replace("/", "")],
        };
      },
    ]),
  },
  OTHER: {
    Weather: T([
      (r, e) => {
        const c = r.pick(CITIES);
        return {
          question: `Will it snow in ${c} on ${longDate(e)}?`,
          type: "BINARY",
          rule: `Resolves "Yes" if measurable snowfall (0.1 in or more) is recorded at the main ${c} weather station that day.`,
          source: "National weather service daily climate report",
          tags: ["weather", c.toLowerCase().replace(/ /g, "-")],
        };
      },
      (r, e) => {
        const c = r.pick(CITIES);
        return {
          question: `What will the high temperature be in ${c} on ${longDate(e)}?`,
          type: "MULTI",
          outcomes: ["Below 10°C", "10–15°C", "15–20°C", "20–25°C", "Above 25°C"],
          rule: "Resolves to the range containing the official daily maximum temperature.",
          source: "National weather service daily climate report",
          tags: ["weather", "temperature"],
        };
      },
    ]),
    Tech: T([
      (r, e) => {
        const co = r.pick(TECH);
        return {
          question: `Will ${co} announce a foldable phone before ${longDate(e)}?`,
          type: "BINARY",
          rule: `Resolves "Yes" if ${co} officially announces a phone with a foldable display before the deadline.`,
          source: `${co} press releases`,
          tags: ["tech", "hardware"],
        };
      },
      (r, e) => ({
        question: `Which app will be #1 on the US App Store on ${longDate(e)}?`,
        type: "MULTI",
        outcomes: ["ChatGPT", "Threads", "TikTok", "Temu", "Other"],
        rule: "Resolves to the top free iPhone app in the US App Store ranking at 12:00 ET.",
        source: "Apple App Store top charts",
        tags: ["tech", "apps"],
      }),
    ]),
    Culture: T([
      (r, e) => ({
        question: `Will Time's Person of the Year be a tech executive?`,
        type: "BINARY",
        rule: 'Resolves "Yes" if Time names a current CEO or founder of a technology company as Person of the Year.',
        source: "Time magazine announcement",
        tags: ["culture", "time"],
      }),
      (r, e) => ({
        question: `Which word will be Merriam-Webster's Word of the Year?`,
        type: "MULTI",
        outcomes: ["Agentic", "Polycrisis", "Rizz", "Enshittification", "Other"],
        rule: "Resolves to the word Merriam-Webster announces as its Word of the Year.",
        source: "Merriam-Webster announcement",
        tags: ["culture", "language"],
      }),
    ]),
  },
};

export const ADJECTIVES = [
  "quiet",
  "brave",
  "lucky",
  "swift",
  "clever",
  "bold",
  "calm",
  "eager",
  "fuzzy",
  "gentle",
  "happy",
  "jolly",
  "keen",
  "lively",
  "mellow",
  "nimble",
  "proud",
  "rapid",
  "sharp",
  "sunny",
  "tidy",
  "witty",
  "zesty",
  "amber",
  "cosmic",
  "crimson",
  "dusty",
  "golden",
  "hidden",
  "icy",
  "lunar",
  "misty",
  "noble",
  "polar",
  "rustic",
  "silver",
  "stormy",
  "velvet",
  "wild",
  "young",
];
export const NOUNS = [
  "falcon",
  "otter",
  "tiger",
  "badger",
  "raven",
  "panda",
  "comet",
  "harbor",
  "meadow",
  "river",
  "summit",
  "canyon",
  "maple",
  "cedar",
  "pixel",
  "quant",
  "oracle",
  "trader",
  "whale",
  "bull",
  "bear",
  "fox",
  "lynx",
  "heron",
  "walrus",
  "koala",
  "gecko",
  "orca",
  "bison",
  "mantis",
  "sparrow",
  "willow",
  "ember",
  "glacier",
  "nomad",
  "pilot",
  "ranger",
  "sage",
  "voyager",
  "wizard",
];

const COMMENTS_GENERIC = [
  "The odds look way off to me. Loading up on the cheap side.",
  "Volume picked up a lot in the last day, someone knows something.",
  "Anyone have a good source on this? The resolution rules seem clear enough.",
  "Took some profit here, still holding a small position.",
  "This is priced about right imo, no edge either way.",
  "Market is overreacting to the headlines again.",
  "Spread is tight, nice liquidity on this one.",
  "I think people are underestimating how fast this can move.",
  "Bought more on the dip, conviction unchanged.",
  "Following. Curious where this settles.",
];
const COMMENTS_BY_CATEGORY: Record<Category, string[]> = {
  CRYPTO: [
    "ETF flows have been strong all week.",
    "Funding rates are getting frothy, careful.",
    "On-chain data says whales are accumulating.",
    "Macro is the only thing that matters for this one.",
  ],
  SPORTS: [
    "Injury report came out this morning, check it before betting.",
    "Their road record is terrible this season.",
    "Home advantage is overrated in the playoffs.",
    "The bench depth is what decides this.",
  ],
  POLITICS: [
    "Polling average moved two points overnight.",
    "Early voting numbers look strong for the challenger.",
    "Don't trust a single poll, look at the aggregate.",
    "Turnout will decide this.",
  ],
  ENTERTAINMENT: [
    "Tracking numbers were way above expectations.",
    "Critics loved it but audiences are mixed.",
    "The campaign season is just getting started.",
    "Streaming numbers are huge right now.",
  ],
  SCIENCE: [
    "The launch window is tight, weather could delay it.",
    "Peer-reviewed data should be out next month.",
    "Historical base rate says no.",
    "Big announcement rumored for next week.",
  ],
  FINANCE: [
    "The dot plot says otherwise.",
    "Earnings next week could move this a lot.",
    "Bond market is pricing a different story.",
    "Options skew is pointing up.",
  ],
  OTHER: [
    "Forecast models disagree a lot on this one.",
    "Fun market, small position for the sweat.",
    "Base rates favor the favorite here.",
    "Resolution source updates at noon, so watch then.",
  ],
};
const REPLIES = [
  "Agreed.",
  "Source?",
  "Not so sure, the data says otherwise.",
  "Good call, I'm in too.",
  "That already happened last time and it didn't move.",
  "We'll see at resolution.",
  "This aged well.",
  "Fair point, trimming my position.",
];

export function commentText(r: Rng, category: Category, reply: boolean): string {
  if (reply) return r.pick(REPLIES);
  return r.chance(0.5) ? r.pick(COMMENTS_BY_CATEGORY[category]) : r.pick(COMMENTS_GENERIC);
}

export const MULTI_COLORS = ["#2563eb", "#f59e0b", "#10b981", "#ef4444", "#8b5cf6", "#ec4899"];
export const VENUES = ["Polymarket", "Kalshi"] as const;
export const RESOLVERS = ["Resolution Desk", "Markets Integrity Team", "UMA Optimistic Oracle"];
