// bid.js: a game's side auction on the page (issue 32, PROTOCOL.md "bid"):
// the standing bid in words, and for the player whose turn it is to bid,
// a raise (supply units and the side wanted) or the acceptance. akd
// checks every step; the page only offers the bounds it was told (max).

import { sideName } from "./describe.js";
import { $ } from "./dom.js";

const units = (n) => `${n} supply unit${n === 1 ? "" : "s"}`;

// The auction in one sentence (null: the game has none).
export function bidText(g, me) {
  const b = g.bid;
  if (!b) return null;
  if (b.status === "closed") return "Side auction: closed without an accepted bid (the game ended first).";
  if (b.status === "settled")
    return `Side bid: ${b.by} plays the ${sideName(b.side)} side for ${units(b.supply)}; the ${sideName(b.receives)} side started with them.`;
  const mine = b.to_bid && me && b.to_bid.toLowerCase() === me.toLowerCase();
  const next = mine ? "your bid: accept it or bid more" : b.to_bid ? `${b.to_bid} to bid` : "an opponent joins, then bids";
  if (b.side === null) return `Side auction: ${mine ? "you open it" : `${b.to_bid} to open it`}.`;
  return `Side auction: ${b.by} bids ${units(b.supply)} to play the ${sideName(b.side)} side; ${next}.`;
}

// Show the auction box for game g; send(fields) makes a `bid` request.
export function renderBid(g, me, send) {
  const b = g.bid, box = $("bid-box");
  box.hidden = !b;
  if (!b) return;
  $("bid-text").textContent = bidText(g, me);
  const mine = b.status === "open" && b.to_bid && me && b.to_bid.toLowerCase() === me.toLowerCase();
  $("bid-controls").hidden = !mine;
  if (!mine) return;
  $("bid-accept").hidden = b.side === null;       // an opening bid first
  const side = $("bid-side"), amount = $("bid-supply");
  if (!side.value) side.value = g.you;
  const bound = () => {                           // more than the standing bid, within the other side's room
    const max = b.max[side.value === "axis" ? "allied" : "axis"];
    amount.min = String(b.supply === null ? 0 : b.supply + 1);
    amount.max = String(max);
    if (amount.value === "" || Number(amount.value) < Number(amount.min)) amount.value = amount.min;
    $("bid-raise").disabled = Number(amount.min) > max;
  };
  side.onchange = bound;
  bound();
  $("bid-raise").onclick = () => send({ supply: Number(amount.value), side: side.value });
  $("bid-accept").onclick = () => send({ accept: true });
}
