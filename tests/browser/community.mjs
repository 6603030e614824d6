// The page as a correspondence and club client (issue 30), in Debian's
// chromium through playwright-core, against the akd of tests/browser.sh
// (after play.mjs, with accounts of its own):
//   1. Dora creates a game from the form: a challenge to Emil, 3 days a
//      player turn, the late player loses; Emil's lobby shows it among
//      those he may take with its rules and clock before he accepts
//   2. the game page shows both clocks: the Axis's running, the Allied's
//      waiting; Emil gives Dora a day (her time left grows); Dora asks for
//      more time (Emil reads it in the chat)
//   3. chat both ways between the players; a logged-in spectator (Fritz)
//      writes in the spectators' channel, which the players do not read
//      during the game; Emil mutes chat (Dora's next line does not reach
//      him) and unmutes (it is there)
//   4. a spectator without an account arriving after Dora's move sees the
//      move list from the start, looks at the opening and steps forward,
//      and goes back to the game
//   5. the charts one click away (the 1964 table, the turn track with
//      the current turn, the reinforcements due, the map key) and the
//      zones of control drawn on demand
//   6. Dora resigns; she offers a rematch: a challenge to Emil with the
//      sides swapped and the same clock, said in the old game's chat;
//      Emil accepts it on its page; calling a seek off is asked first
//      (no keeps it, yes calls it off)
//   7. the ladder, a player's page, the settings (a daily digest, a
//      vacation started and ended), and a tournament (made by an operator
//      on the Admin page) joined from its page and started there: its
//      pairing shown; another one renamed, a player removed, cancelled
//   also (issue 33): the Admin page's reported chat: a line removed, its
//      author muted and unmuted, a report dismissed
// usage: node community.mjs HTTP_URL TCP_HOST:PORT ADMIN_USER ADMIN_PASSWORD
import { ok, expectText, newPage, finish, registerAt } from "./harness.mjs";
import net from "node:net";

const [url, tcp, adminUser, adminPassword] = process.argv.slice(2);

async function noText(page, selector, pattern, what, wait = 1000) {
  await page.waitForTimeout(wait);
  const texts = await page.locator(selector).allTextContents();
  ok(!texts.some((t) => new RegExp(pattern).test(t)), what);
}

// Requests over akd's TCP port, in one connection; their replies.
function overTcp(lines) {
  const [host, port] = tcp.split(":");
  return new Promise((resolve, reject) => {
    const got = [];
    let buf = "";
    const s = net.connect(Number(port), host, () => s.write(lines.map((l, i) => JSON.stringify({ id: i + 1, ...l }) + "\n").join("")));
    s.on("data", (d) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const m = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (m.id) got.push(m);
      }
      if (got.length >= lines.length) { s.destroy(); resolve(got); }
    });
    s.on("error", reject);
    setTimeout(() => { s.destroy(); resolve(got); }, 5000);
  });
}

const register = (page, user) => registerAt(url, page, user);
const clockLeft = async (page, side) => {
  const t = await page.textContent(`#clock-${side}`);
  const d = Number((t.match(/(\d+) d/) || [0, 0])[1]), h = Number((t.match(/(\d+) h/) || [0, 0])[1]);
  return d * 24 + h;
};

const dora = await newPage("dora"), emil = await newPage("emil", { width: 390, height: 844 }), fritz = await newPage("fritz");
await register(dora, "dora");
await register(emil, "emil");
await register(fritz, "fritz");

// --- 1. a correspondence challenge from the form, its terms seen before accepting ---
await dora.fill("#new-opponent", "emil");
ok(await dora.isHidden("#new-range-fields"), "a challenge has no rating range to fill in");
await dora.selectOption("#new-clock", "turn");
await dora.fill("#new-clock-amount", "3");
await dora.selectOption("#new-clock-unit", "86400");
await dora.selectOption("#new-clock-expiry", "lose");
await dora.click("#new-game");
await dora.waitForURL(/\/game\/\d+$/);
const game = Number(dora.url().match(/(\d+)$/)[1]);
await expectText(dora, "#game-status", "Waiting for emil to accept", "Dora's challenge waits for Emil");
await emil.goto(url);
await expectText(emil, "#games-open tr", `Game ${game}.*3 d a turn \\(loses when it runs out\\)`,
  "Emil's lobby lists the challenge among those he may take, with its clock");
await expectText(emil, "#games-open tr", `Game ${game}.*Afrika Korps.*Challenge to emil`, "... its rules, and that it is his");
await emil.click(`button[data-join="${game}"]`);
await emil.waitForURL(new RegExp(`/game/${game}$`));

// --- 2. both clocks; time given, time asked ---
await expectText(emil, "#clock-axis", "2 d 23 h left, to play", "Emil sees the Axis clock running: 3 days a turn");
await expectText(emil, "#clock-allied", "waiting \\(3 d a turn", "... and his own waiting");
await expectText(dora, "#clock-axis", "left, to play", "Dora sees her own clock running");
ok(await emil.isVisible("#give-time") && await emil.isHidden("#ask-time"), "Emil may give time (Dora is to play), not ask");
ok(await dora.isHidden("#give-time") && await dora.isVisible("#ask-time"), "Dora may ask for time, not give it");
const before = await clockLeft(dora, "axis");
await emil.selectOption("#give-time-amount", "86400");
await emil.click("#give-time");
await expectText(dora, "#log li", "The Allied player gave 1 d more", "Dora is told Emil gave her a day");
await expectText(dora, "#clock-axis", "3 d 23 h left", `... and her clock shows it (${before} h before)`);
await dora.click("#ask-time");
await expectText(emil, "#chat li", "dora.*asks for more time", "Dora asks for more time: Emil reads it in the chat");

// --- 3. chat both ways, spectators apart, mute ---
await dora.fill("#chat-text", "Good luck, Emil");
await dora.press("#chat-text", "Enter");
if (!await expectText(emil, "#chat li", "dora: Good luck, Emil", "Dora's line reaches Emil"))
  console.log("Emil's chat:", await emil.locator("#chat li").allTextContents(), "Dora's:", await dora.locator("#chat li").allTextContents());
await emil.fill("#chat-text", "And to you");
await emil.click("#chat-send");
await expectText(dora, "#chat li", "emil: And to you", "Emil's line reaches Dora");
// a chat line can be reported to the admins (issue 33): not one's own
ok((await dora.locator('#chat li:has-text("Good luck, Emil") button.chat-report').count()) === 0,
  "Dora has no Report button on her own line");
emil.answer = "rude";
await emil.locator('#chat li:has-text("Good luck, Emil") button.chat-report').click();
await expectText(emil, '#chat li button.chat-report', "Reported", "Emil reports Dora's line: the button says Reported");
emil.answer = undefined;
// the admins' page (issue 33): the report with its reason, the line
// removed, its author muted for an hour and unmuted, a report dismissed
await dora.fill("#chat-text", "A second line");
await dora.press("#chat-text", "Enter");
await expectText(emil, "#chat li", "dora: A second line", "Dora's second line reaches Emil");
emil.answer = "";
await emil.locator('#chat li:has-text("A second line") button.chat-report').click();
emil.answer = undefined;
ok(await dora.isHidden("#admin-link"), "a player without the admin role has no Admin link");
const admin = await newPage("tdir");
await admin.goto(url);
await admin.fill("#login-user", adminUser);
await admin.fill("#login-password", adminPassword);
await admin.press("#login-password", "Enter");
await admin.waitForSelector("#admin-link:not([hidden])");
await admin.click("#admin-link");
await expectText(admin, "#report-list tr", 'Good luck, Emil.*emil \\("rude"\\)', "the Admin page lists Emil's report with its reason");
await admin.click('#report-list tr:has-text("Good luck, Emil") button[data-remove]');
await expectText(dora, "#chat li", "dora: \\(removed by an admin\\)", "the admin removes the line: it reads as removed on Dora's page at once");
ok(/Remove line \d+ by dora\?/.test(admin.asked.join(" / ")), "... asked first");
admin.answer = "1h";
await admin.click('#report-list tr:has-text("A second line") button[data-mute="dora"]');
await expectText(admin, "#admin-done", "dora is muted until", "the admin mutes Dora's chat for an hour");
await dora.fill("#chat-text", "Can anyone hear me?");
await dora.press("#chat-text", "Enter");
await expectText(dora, "#error-text", "muted", "Dora's next line is refused: muted");
admin.answer = "0s";
await admin.click('#report-list tr:has-text("A second line") button[data-mute="dora"]');
await expectText(admin, "#admin-done", "dora may chat again", "... and unmutes her");
admin.answer = undefined;
await admin.click('#report-list tr:has-text("A second line") button[data-dismiss]');
await expectText(admin, "#report-list", "No reports waiting", "the second report is dismissed: none waiting");
await fritz.goto(`${url}/game/${game}`);
await expectText(fritz, "#chat-note", "other spectators", "Fritz, a spectator, writes to the spectators");
ok((await fritz.locator("#chat li").count()) === 0, "... and does not read the players' channel during the game");
await fritz.fill("#chat-text", "Watching from Tobruch");
await fritz.click("#chat-send");
await expectText(fritz, "#chat li", "fritz \\(spectator\\): Watching from Tobruch", "Fritz reads his own line");
await noText(dora, "#chat li", "Watching from Tobruch", "the players do not read the spectators' channel during the game");
await emil.check("#chat-mute");
await expectText(emil, "#chat-note", "muted", "Emil mutes chat");
await dora.fill("#chat-text", "Are you there?");
await dora.click("#chat-send");
await noText(emil, "#chat li", "Are you there", "... and Dora's next line does not reach him");
await emil.uncheck("#chat-mute");
await expectText(emil, "#chat li", "dora: Are you there\\?", "unmuted, the history has it");

// --- 4. a spectator without an account, arriving after a move: the move list and the replay ---
const units = (await overTcp([{ cmd: "show", game }]))[0].result.state.units;
const [unit, unit2] = Object.keys(units).filter((u) => units[u].hex === "W6").sort();
const [, dests] = await overTcp([{ cmd: "login", user: "dora", password: "password-dora" }, { cmd: "dests", game, units: [unit] }]);
const dest = dests.result.dests[0].hex;
const moved = await overTcp([{ cmd: "login", user: "dora", password: "password-dora" },
  { cmd: "act", game, action: { action: "move", units: [unit], to: dest } },
  { cmd: "act", game, action: { action: "move", units: [unit2], to: dest } }]);
ok(moved[1].ok && moved[2].ok, `Dora moves ${unit} and ${unit2} to ${dest}`);
const guest = await newPage("guest");
await guest.goto(`${url}/game/${game}`);
await guest.waitForSelector("#replay-box:not([hidden])");
await guest.click("#replay-box summary");
await expectText(guest, "#moves li", `Axis: Move ${unit} to ${dest}`, "a spectator without an account sees the move list from the start");
await guest.click("#replay-first");
await expectText(guest, "#replay-at", "Looking at the start", "... looks at the opening");
await guest.click("#replay-next");
await expectText(guest, "#replay-at", "after action 1 of 2", "... steps forward to after the first move");
await guest.click("#replay-next");
await expectText(guest, "#replay-at", "The game as it is", "... and once more: the game as it is");
await guest.click('#moves button[data-seq="1"]');
await expectText(guest, "#replay-at", `after action 1 of 2 \\(Axis: Move ${unit} to`, "a click on a move shows the position after it");
await guest.click("#replay-live");
await expectText(guest, "#replay-at", "The game as it is", "... and goes back to the game");
await expectText(guest, "#chat-note", "Log in", "a spectator without an account is asked to log in to chat");

// --- 5. charts and overlays ---
await dora.click("#charts-open");
await expectText(dora, "#charts-body th", "^3-1$", "the charts open on the combat results table with its 3-1 column");
await expectText(dora, "#charts-body p", "DE: defender eliminated", "... and its key");
await dora.click('#charts-tabs button[data-chart="turns"]');
await expectText(dora, "#charts-body tr.now", "1 April 1941", "the turn track marks the current turn, 1 April 1941");
await dora.click('#charts-tabs button[data-chart="reinforcements"]');
await expectText(dora, "#charts-body td", "^15$", "the reinforcements due are listed by turn (turn 15 among them)");
await dora.click('#charts-tabs button[data-chart="supply"]');
await expectText(dora, "#charts-body p", "Supply units on the board at most", "the supply table");
await dora.click('#charts-tabs button[data-chart="key"]');
await expectText(dora, "#map-key p", "escarpment", "the map key names the terrain");
await dora.click("#charts-close");
ok(await dora.isHidden("#charts"), "the charts close");
await dora.check("#show-zones");
await dora.waitForSelector('[data-hl^="zone-allied:"]', { state: "attached", timeout: 5000 }).catch(() => {});
const zoneSquares = await dora.locator('[data-hl^="zone-allied:"]').count();
ok(zoneSquares > 0, `the Allied zones of control drawn on demand (${zoneSquares} squares)`);
await dora.uncheck("#show-zones");
await dora.waitForTimeout(300);
ok(await dora.locator('[data-hl^="zone-allied:"]').count() === 0, "... and gone when unticked");

// --- 6. the end, and a rematch ---
await dora.click("#resign");
await expectText(emil, "#game-status", "The Allies won", "Dora resigns; Emil sees the result");
await dora.waitForSelector("#rematch:not([hidden])");
await dora.click("#rematch");
await dora.waitForURL((u) => !u.pathname.endsWith(`/game/${game}`));
const rematch = Number(dora.url().match(/(\d+)$/)[1]);
const summary = (await overTcp([{ cmd: "show", game: rematch }]))[0].result;
ok(summary.challenge === "emil" && summary.players.allied === "dora" && summary.time_control?.seconds === 3 * 86400 &&
   summary.time_control?.per === "turn", `the rematch is a challenge to Emil, Dora on the Allied side, the same clock (game ${rematch})`);
await expectText(fritz, "#chat li", "emil: And to you", "once the game is over the spectators read the players' channel too");
await expectText(emil, "#chat li", `offers a rematch: game ${rematch}`, "Emil, still on the old game, reads the offer in its chat");
await emil.goto(`${url}/game/${rematch}`);
await emil.waitForSelector("#game-accept:not([hidden])");
ok(await emil.isHidden("#resign") && await emil.isHidden("#end-turn"), "the invited player sees Accept and Decline, not the game's controls");
await emil.click("#game-accept");
await expectText(emil, "#game-status", "Your move", "Emil accepts the rematch on its page: he is the Axis now, to move");

// calling a game off is asked first: no keeps it, yes calls it off
await fritz.goto(url);
await fritz.click("#new-game");
await fritz.waitForURL(/\/game\/\d+$/);
const seek = Number(fritz.url().match(/(\d+)$/)[1]);
await fritz.waitForSelector("#game-calloff:not([hidden])");
fritz.refuse = true;
await fritz.click("#game-calloff");
await fritz.waitForTimeout(400);
fritz.refuse = false;
const still = (await overTcp([{ cmd: "show", game: seek }]))[0];
ok(still.ok && still.result.open, "Call off answered no: the seek stays open");
await fritz.click("#game-calloff");
await fritz.waitForURL((u) => u.pathname === "/");
const gone = (await overTcp([{ cmd: "show", game: seek }]))[0];
ok(!gone.ok || gone.result.result !== "none" || !gone.result.open, `... answered yes: it is called off (${JSON.stringify(gone.error?.code || gone.result?.open)})`);

// --- 7. ladder, player, settings, tournaments ---
await emil.goto(`${url}/ladder`);
await emil.waitForSelector("#ladder-view:not([hidden])");
ok((await emil.locator("#ladder tbody tr").count()) >= 1, "the ladder page shows a table");
await emil.goto(`${url}/player/dora`);
await expectText(emil, "#player-body", "as Axis: 0 won, 0 lost", "a player's page: results by side");
await emil.goto(`${url}/player/nobody_here`);
await expectText(emil, "#player-body", "There is no player nobody_here", "an unknown player is said so");
await emil.goto(`${url}/settings`);
await emil.waitForSelector("#settings-view:not([hidden])");
await emil.selectOption("#set-notify", "digest");
await emil.click("#settings-save");
await expectText(emil, "#settings-status", "Saved", "Emil chooses a daily digest");
const prefs = (await overTcp([{ cmd: "login", user: "emil", password: "password-emil" }, { cmd: "settings" }]))[1].result;
ok(prefs.notify === "digest", `... and akd has it (${prefs.notify})`);
await emil.fill("#vacation-days", "3");
await emil.click("#vacation-start");
await expectText(emil, "#vacation-status", "On vacation until", "a vacation starts from the page");
await emil.click("#vacation-end");
ok(await emil.waitForFunction(() => !document.getElementById("vacation-status").textContent.includes("On vacation"), null,
  { timeout: 5000 }).then(() => true, () => false), "... and ends: no longer on vacation");
const away = (await overTcp([{ cmd: "login", user: "emil", password: "password-emil" }, { cmd: "vacation" }]))[1].result;
ok(!away.away, `... and akd agrees (${JSON.stringify(away)})`);

// the operator makes it on the Admin page (issue 33)
await admin.goto(`${url}/admin`);
await admin.fill("#tn-name", "Club cup");
await admin.selectOption("#tn-kind", "round_robin");
await admin.click("#tn-create");
await admin.waitForURL(/\/tournament\/\d+$/);
const tid = Number(admin.url().match(/(\d+)$/)[1]);
ok(tid > 0, `an operator makes a tournament on the Admin page: tournament ${tid}`);
for (const p of [dora, emil]) {
  await p.goto(`${url}/tournaments`);
  await expectText(p, "#tournament-list tr", "Club cup.*round robin", "the tournaments page lists it with its terms");
  await p.click(`button[data-join-tournament="${tid}"]`);
  await p.waitForURL(new RegExp(`/tournament/${tid}$`));
}
await expectText(emil, "#tournament-terms", "2 players", "both joined from the page: the tournament's page says 2 players");
// before the start a player may leave from the page, and come back (issue 33)
await emil.click(`button[data-withdraw-tournament="${tid}"]`);
await expectText(emil, "#tournament-terms", "1 players", "Emil withdraws from the page before the start");
await emil.click(`button[data-join-tournament="${tid}"]`);
await expectText(emil, "#tournament-terms", "2 players", "... and joins again");
await admin.reload();
await admin.click("#tournament-start");
await expectText(admin, "#tournament-terms", "Round 1", "the operator starts it from its page");
await emil.reload();
await expectText(emil, "#pairings tr", "dora|emil", "its page shows the pairing with its game");
await expectText(emil, "#standings tr", "emil", "... and the standings");
ok(await emil.locator("#tournament-admin").count() === 0 && await emil.locator("button[data-remove-player]").count() === 0,
  "a player sees no corrections on the tournament's page");

// corrections on a tournament's page (issue 33): renamed, a player
// removed, cancelled, its name free again
await admin.goto(`${url}/admin`);
await admin.fill("#tn-name", "Spare cup");
await admin.check("#tn-bid");
await admin.click("#tn-create");
await admin.waitForURL(/\/tournament\/\d+$/);
const spare = Number(admin.url().match(/(\d+)$/)[1]);
await expectText(admin, "#tournament-terms", "sides bid for", "a tournament whose sides are bid for, made from the form");
await dora.goto(`${url}/tournament/${spare}`);
await dora.click(`button[data-join-tournament="${spare}"]`);
await admin.reload();
await expectText(admin, "#tournament-terms", "1 players", "Dora joined it");
admin.answer = "Spare cup, spring";
await admin.click("#tournament-rename");
await expectText(admin, "#tournaments-title", "Spare cup, spring", "the admin renames it before the start");
admin.answer = undefined;
await admin.click('button[data-remove-player="dora"]');
await expectText(admin, "#tournament-terms", "0 players", "... removes Dora (asked first)");
await admin.click("#tournament-cancel");
await expectText(admin, "#tournament-terms", "Cancelled", "... and cancels it");
ok(await admin.locator("#tournament-admin").count() === 0, "a cancelled tournament offers no more corrections");

await finish();
