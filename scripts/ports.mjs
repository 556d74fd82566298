/**
 * Ports the console's servers may listen on, in plain JavaScript so that server.mjs (what `npm start` runs) can use
 * it under node alone (tsx is a development dependency); types in ports.d.mts.
 *   node scripts/ports.mjs PORT [MORE_VARIABLES…]   exits 1, naming the variable, when one is not usable
 */
import { pathToFileURL } from "node:url";

/**
 * The fetch standard's blocked ports (https://fetch.spec.whatwg.org/#port-blocking), which browsers and Node's fetch
 * refuse with "bad port", so a server there cannot be reached. ports.test.ts holds this copy to what this Node's
 * fetch refuses (undici does not export its list).
 */
export const FETCH_BLOCKED_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** Why `value`, the port set by the variable `variable`, cannot be listened on; undefined when it can. */
export function portProblem(variable, value) {
  const port = Number(value);
  const retry = `Choose another port: ${variable}=<port>.`;
  // The text as set, quoted (an empty one shows as ""), never Number()'s NaN.
  if (!/^\d+$/.test(String(value ?? "")) || !Number.isInteger(port) || port < 1 || port > 65535) {
    return `${variable} must be a port number from 1 to 65535, not ${JSON.stringify(String(value ?? ""))}. ${retry}`;
  }
  if (FETCH_BLOCKED_PORTS.has(port)) {
    return (
      `${variable}=${port} is a port that browsers and Node's fetch refuse to connect to ` +
      `(the fetch standard's blocked ports, https://fetch.spec.whatwg.org/#port-blocking). ${retry}`
    );
  }
  return undefined;
}

/**
 * The port the variable sets (its fallback when it is unset), or an error naming the variable and the
 * text it holds: read as text and judged before Number() could turn "abc" into NaN.
 */
export function readPort(variable, fallback, environment = process.env) {
  const value = environment[variable] ?? String(fallback);
  const problem = portProblem(variable, value);
  if (problem) throw new Error(problem);
  return Number(value);
}

// Run as a script: checks each variable named on the command line that is set (an unset one takes its default).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problems = process.argv
    .slice(2)
    .filter((variable) => process.env[variable])
    .map((variable) => portProblem(variable, process.env[variable]))
    .filter(Boolean);
  for (const problem of problems) console.error(problem);
  process.exit(problems.length > 0 ? 1 : 0);
}
