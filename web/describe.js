// describe.js: words for people about actions, battles and times, apart
// from the page's logic (as akc keeps its notation apart from play).

const list = (units) => (Array.isArray(units) ? units.join(", ") : String(units ?? ""));

export function describeAction(a) {
  switch (a.action) {
    case "move": return `Move ${list(a.units)} to ${a.to}`;
    case "place": return a.at === "box" ? `Place ${list(a.unit ?? a.units)} in your off-board box` : `Place ${list(a.unit ?? a.units)} at ${a.at}`;
    case "embark": return `Embark ${list(a.units)}`;
    case "end_movement": return "End the movement portion";
    case "end_turn": return "End the combat portion and the turn";
    case "destroy_supply": return `Destroy supply ${list(a.units)}`;
    case "battle": return `Battle: ${list(a.attackers)} against ${list(a.defenders)}${a.supply ? ` (supply ${a.supply})` : ""}`;
    case "cancel": return `Cancel battle ${a.battle}`;
    case "abandon": return `Abandon ${list(a.units)}`;
    case "resolve": return `Resolve battle ${a.battle}`;
    case "retreat": return `Retreat ${list(a.units)} by ${(a.path || []).join(" then ")}`;
    case "exchange": return `Lose ${list(a.units)} in the exchange`;
    case "advance": return a.units && a.units.length ? `Advance ${list(a.units)} to ${a.to}` : "Do not advance";
    case "substitute": return `Substitute ${list(a.out)} for ${list(a.in)}`;
    case "resign": return "Resign";
    // the Updated ruleset
    case "end_phase": return "End the phase";
    case "burn_supply": return `Burn supply ${list(a.units)} for emergency supply`;
    case "supply_attacks": return `Spend supply ${list(a.units)}: your units within 5 squares may attack`;
    case "losses": {
      const parts = [];
      if (a.reduce?.length) parts.push(`reduce ${list(a.reduce)}`);
      if (a.eliminate?.length) parts.push(`eliminate ${list(a.eliminate)}`);
      return parts.length ? `Losses: ${parts.join(", ")}` : "No further loss (decline the offer)";
    }
    case "rebuild": return `Rebuild ${list(a.units)} to full strength`;
    case "break_out": return `Break out of ${a.at}`;
    case "fortify": return `Fortify ${list(a.units)} as a box (spends supply ${a.supply})`;
    case "port_move": return a.to ? `Ship ${list(a.units)} from the off-board box to ${a.to}` : `Ship ${list(a.units)} from Tobruch to the off-board box`;
    default: return JSON.stringify(a);
  }
}

const RESULTS = { AE: "attacker eliminated", AB2: "attacker back 2", EX: "exchange", DB2: "defender back 2", DE: "defender eliminated" };
export const resultName = (code) => RESULTS[code] || code;

const TERRAIN = { homebase: "home base", "qattara-partial": "partial Qattara", qattara: "Qattara Depression" };
export const terrainName = (t) => TERRAIN[t] || t;

const PHASES = { mech: "mechanized movement" };
export const phaseName = (phase) => PHASES[phase] || phase;

export const sideName = (side) => (side === "axis" ? "Axis" : side === "allied" ? "Allied" : "—");

export function duration(seconds) {
  if (seconds <= 0) return "no time left";
  const d = Math.floor(seconds / 86400), h = Math.floor(seconds % 86400 / 3600), m = Math.floor(seconds % 3600 / 60);
  if (d) return h ? `${d} d ${h} h` : `${d} d`;
  if (h) return m ? `${h} h ${m} min` : `${h} h`;
  return `${m} min ${Math.floor(seconds % 60)} s`;
}

export function errorText(e) {
  if (e.code === "illegal") return `Not allowed: ${e.message} (${e.section}, ${e.rule})`;
  return e.message || String(e);
}

// What a time control allows: "3 d a turn".
export const allowance = (tc) => `${duration(tc.seconds)} ${tc.per === "turn" ? "a turn" : "an action"}`;

// A time control in words: "3 d a turn (loses when it runs out)".
export function timeControlText(tc) {
  if (!tc) return "no clock";
  const expiry = tc.on_expiry === "lose" ? "loses when it runs out" : "an operator decides when it runs out";
  return `${allowance(tc)} (${expiry})`;
}

// A game's result for people: "the Axis won (time)".
export function outcomeText(g) {
  const by = (side) => (g.players?.[side] ? ` (${g.players[side]})` : "");
  const who = g.result === "axis_wins" ? `the Axis${by("axis")} won` : g.result === "allied_wins" ? `the Allies${by("allied")} won` : "a draw";
  return g.reason && g.reason !== "none" ? `${who} (${g.reason})` : who;
}
