// harness.mjs: what the browser tests (play.mjs, community.mjs) share:
// checks printed as "ok:"/"FAIL:" lines and counted, waiting for a text
// to appear, and pages each in its own browser context (a player of its
// own), whose script errors are collected and whose questions (confirm,
// before an action that throws something away) are answered yes, or no
// while page.refuse is set, and kept in page.asked to be checked.
import { chromium } from "playwright-core";

export let failed = 0;
export const errors = [];

export function ok(cond, what) {
  console.log(`${cond ? "ok" : "FAIL"}: ${what}`);
  if (!cond) failed++;
}

export async function expectText(page, selector, pattern, what, timeout = 5000) {
  try {
    await page.waitForFunction(([s, p]) => [...document.querySelectorAll(s)].some((e) => new RegExp(p).test(e.textContent)),
      [selector, pattern], { timeout });
    ok(true, what);
    return true;
  } catch {
    ok(false, `${what} (no ${selector} matching /${pattern}/)`);
    return false;
  }
}

export const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox"] });

export async function newPage(name, viewport = { width: 1280, height: 800 }) {
  const ctx = await browser.newContext({ viewport });
  const page = await ctx.newPage();
  page.on("pageerror", (e) => errors.push(`${name}: ${e.message}`));
  page.on("console", (m) => { if (m.type() === "error" && !/status of 4\d\d/.test(m.text())) errors.push(`${name}: ${m.text()}`); });
  page.asked = [];
  page.refuse = false;
  // page.answer: what a prompt is answered (else its default)
  page.on("dialog", (d) => { page.asked.push(d.message()); page.refuse ? d.dismiss() : d.accept(page.answer); });
  return page;
}

// A new account made in the page at url (its password: "password-" and
// the name, typed twice); the lobby is shown.
export async function registerAt(url, page, user) {
  await page.goto(url);
  await page.fill("#login-user", user);
  await page.fill("#login-password", `password-${user}`);
  await page.fill("#login-password2", `password-${user}`);
  await page.click("#register");
  await page.waitForSelector("#lobby-view:not([hidden])");
}

// The end of a test program: no script errors, the browser closed, the
// count of failures as the exit status.
export async function finish() {
  ok(errors.length === 0, `no script errors in the pages${errors.length ? ": " + errors.join("; ") : ""}`);
  await browser.close();
  console.log(failed ? `${failed} FAILED` : "all passed");
  process.exit(failed ? 1 : 0);
}
