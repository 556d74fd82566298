import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

import { STORY_INCIDENTS } from "@/emulator/server";
import { errorMessage } from "@/lib/error-message";

import { TOUR_ALERTS } from "./demo-alerts";
import { demoUsers, logTail, startDemoStack, terminal, type DemoStack } from "./demo-stack";
import { readPort } from "./ports.mjs";

/**
 * npm run tour: starts the demo stack on ports of its own, plays the tour's steps (tooling/tour/) in Chromium and
 * writes the screenshots of every step into docs/tour/, and a video (tour.webm) when an ffmpeg is at hand (TOUR_FFMPEG
 * names one; empty, no video). Ports and ffmpeg: docs/demo.md, "Recording the tour".
 */
const outDir = path.resolve("docs/tour");
const dataDir = path.resolve(".data/tour");
const logFile = path.join(dataDir, "tour.log");
const VIDEO_FILE = path.join(outDir, "tour.webm");
/** How long each step stays on screen in the video. */
const VIDEO_PAUSE_MS = 2_500;
const port = (env: string, fallback: number) => ({ port: readPort(env, fallback), env });
const say = (line: string) => terminal.out(`${line}\n`);

/** An executable named `name` on PATH, or null. */
function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      /* not here */
    }
  }
  return null;
}

/** Where Playwright keeps its downloads (its registry): PLAYWRIGHT_BROWSERS_PATH, else the user's cache. */
function playwrightRegistry(packageRoot: string): string {
  const fromEnv = process.env.PLAYWRIGHT_BROWSERS_PATH;
  if (fromEnv === "0") return path.join(packageRoot, ".local-browsers");
  if (fromEnv) return path.resolve(fromEnv);
  const home = os.homedir();
  if (process.platform === "darwin") return path.join(home, "Library", "Caches", "ms-playwright");
  if (process.platform === "win32")
    return path.join(process.env.LOCALAPPDATA ?? path.join(home, "AppData", "Local"), "ms-playwright");
  return path.join(process.env.XDG_CACHE_HOME ?? path.join(home, ".cache"), "ms-playwright");
}

/**
 * Playwright records video only with the ffmpeg of its registry (`<registry>/ffmpeg-<revision>/ffmpeg-linux`) and no
 * option names another: when it is missing but one is on PATH, this links it into a registry of the tour's own and
 * points PLAYWRIGHT_BROWSERS_PATH there before Playwright loads (Chromium is given by path).
 */
function prepareVideoRecording(): { ffmpeg: string } | { missing: string } {
  const require = createRequire(import.meta.url);
  const packageRoot = path.dirname(require.resolve("playwright-core/package.json"));
  const browsers = JSON.parse(fs.readFileSync(path.join(packageRoot, "browsers.json"), "utf8")) as {
    browsers: Array<{ name: string; revision: string }>;
  };
  const revision = browsers.browsers.find((b) => b.name === "ffmpeg")?.revision;
  const executable = { linux: "ffmpeg-linux", darwin: "ffmpeg-mac", win32: "ffmpeg-win64.exe" }[
    process.platform as string
  ];
  if (!revision || !executable) return { missing: `Playwright has no video recorder for ${process.platform}` };
  const chosen = process.env.TOUR_FFMPEG;
  if (chosen === "") return { missing: "TOUR_FFMPEG is set empty" };
  const own = path.join(playwrightRegistry(packageRoot), `ffmpeg-${revision}`, executable);
  if (!chosen && fs.existsSync(own)) return { ffmpeg: own };
  const system = chosen ?? onPath("ffmpeg");
  if (!system) return { missing: `no ffmpeg: neither Playwright's (${own}) nor one on PATH` };
  const registry = path.resolve(".data/playwright-ffmpeg");
  const link = path.join(registry, `ffmpeg-${revision}`, executable);
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.rmSync(link, { force: true });
  fs.symlinkSync(system, link);
  process.env.PLAYWRIGHT_BROWSERS_PATH = registry;
  return { ffmpeg: system };
}

/** Playwright's recording at a size for the repository: VP9 at constant quality, under ~5 MB. */
function compressVideo(ffmpeg: string, raw: string, target: string): void {
  execFileSync(ffmpeg, [
    "-loglevel",
    "error",
    "-y",
    "-i",
    raw,
    "-an",
    "-c:v",
    "libvpx-vp9",
    "-b:v",
    "0",
    "-crf",
    "45",
    "-deadline",
    "good",
    "-cpu-used",
    "4",
    "-row-mt",
    "1",
    target,
  ]);
}

const startedAt = Date.now();

async function main() {
  const video = prepareVideoRecording();
  // Loaded only now: Playwright reads PLAYWRIGHT_BROWSERS_PATH when it loads.
  const { chromium } = await import("@playwright/test");
  const { playTour } = await import("@/tooling/tour/play");
  const { TOUR_VARIANTS, TOUR_VIEWPORT } = await import("@/tooling/tour/step");
  const { TOUR_STEPS } = await import("@/tooling/tour/steps");
  const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(
      `The tour needs Chromium at ${chromiumPath}: sudo apt-get install -y chromium (or set CHROMIUM_PATH).`,
    );
  }

  say("Starting the demo stack for the tour…");
  const stack: DemoStack = await startDemoStack({
    console: port("TOUR_PORT", 3030),
    emulator: port("TOUR_EMULATOR_PORT", 4030),
    oidc: port("TOUR_OIDC_PORT", 4040),
    tenantApp: port("TOUR_TENANT_APP_PORT", 4060),
    notices: port("TOUR_NOTICE_PORT", 4070),
    smtp: port("TOUR_SMTP_PORT", 4035),
    dataDir,
    logFile,
    alerts: TOUR_ALERTS,
  });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    // Play the story's first half-minute at once (virtual time), so its rotated-key burst is in the log.
    const skipTo = STORY_INCIDENTS.badSignatures.atSeconds + 5;
    await fetch(`${stack.emulator.url}/_emulator/clock/advance`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ seconds: skipTo }),
    });
    const context = {
      user: demoUsers[0],
      connectionName: stack.connectionNames[0] ?? "Acme",
      tenantApp: stack.tenantApp,
    };
    fs.mkdirSync(outDir, { recursive: true });

    if ("ffmpeg" in video) {
      say(`Recording the video (ffmpeg: ${video.ffmpeg})…`);
      const rawDir = path.join(dataDir, "video");
      const recording = await browser.newContext({
        baseURL: stack.consoleUrl,
        viewport: TOUR_VIEWPORT,
        recordVideo: { dir: rawDir, size: TOUR_VIEWPORT },
      });
      const page = await recording.newPage();
      await playTour(page, { context, variants: [], pauseMs: VIDEO_PAUSE_MS, log: say });
      const recorded = page.video();
      await recording.close();
      if (recorded) {
        const raw = await recorded.path();
        try {
          compressVideo(video.ffmpeg, raw, VIDEO_FILE);
        } catch (error) {
          say(`Could not shrink the video (${errorMessage(error)}); keeping Playwright's recording as it is.`);
          fs.copyFileSync(raw, VIDEO_FILE);
        }
        say(
          `Video: ${path.relative(process.cwd(), VIDEO_FILE)} (${(fs.statSync(VIDEO_FILE).size / 1_048_576).toFixed(1)} MB)`,
        );
      }
    } else {
      say(
        `No video this time (${video.missing}); writing the screenshots only, and leaving docs/tour/tour.webm as it was.`,
      );
      say(
        "To record it: sudo apt-get install -y --no-install-recommends ffmpeg (or `npx playwright install ffmpeg` where downloads work).",
      );
    }

    say(`Taking the screenshots (${TOUR_VARIANTS.map((v) => v.name).join(", ")})…`);
    for (const old of fs.readdirSync(outDir).filter((f) => f.endsWith(".png"))) fs.rmSync(path.join(outDir, old));
    const pictures = await browser.newContext({ baseURL: stack.consoleUrl, viewport: TOUR_VIEWPORT });
    const report = await playTour(await pictures.newPage(), { context, screenshotDir: outDir, log: say });
    await pictures.close();
    const done = TOUR_STEPS.length - report.skipped.length;
    say(
      `\nThe tour: ${done} of ${TOUR_STEPS.length} steps, ${report.screenshots.length} screenshots in ${path.relative(process.cwd(), outDir)}/.`,
    );
    for (const { step, reason } of report.skipped) say(`  skipped ${step}: ${reason}`);
    for (const { step, note } of report.notes) say(`  note on ${step}: ${note}`);
  } finally {
    await browser.close();
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    terminal.err(`\nThe tour failed: ${errorMessage(error)}\n`);
    const tail = logTail(logFile, startedAt);
    if (tail) terminal.err(`\nThe last lines of ${logFile}:\n${tail}\n`);
    process.exit(1);
  },
);
