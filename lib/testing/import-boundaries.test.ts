import path from "node:path";

import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The import boundaries (eslint.config.mjs, ARCHITECTURE.md "Dependencies") fail `npm run lint`: for each,
// a planted bad import is reported, and an import the architecture allows is not. The planted files do
// not exist; each imported one does, since an import is judged by the file it resolves to.
const root = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: root });

async function boundaryMessages(
  filePath: string,
  source: string,
  ruleId = "import/no-restricted-paths",
): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport {};\n`, { filePath: path.join(root, filePath) });
  const fatal = result!.messages.find((m) => m.fatal);
  if (fatal) throw new Error(`${filePath}: ${fatal.message}`);
  return result!.messages.filter((m) => m.ruleId === ruleId).map((m) => m.message);
}

describe("import boundaries", () => {
  it.each([
    [
      "lib imports app",
      "lib/users/planted.ts",
      'import TeamPage from "@/app/(console)/team/page";',
      /never import app/,
    ],
    [
      "a component imports app, relatively",
      "components/auth/planted.tsx",
      'import SetPasswordPage from "../../app/(auth)/set-password/page";',
      /never import app/,
    ],
    [
      "lib calls a server action of its own feature",
      "lib/team/planted.ts",
      'import { addTeamMemberAction } from "@/lib/team/actions";',
      /never calls a server action/,
    ],
    [
      "lib/db imports a feature",
      "lib/db/planted.ts",
      'import { KNOWN_METHODS } from "../webhooks/constants";',
      /lib\/db imports no feature/,
    ],
    [
      "lib/outbound imports a feature",
      "lib/outbound/planted.ts",
      'import { MAX_ATTEMPTS } from "@/lib/destinations/constants";',
      /lib\/outbound imports no feature/,
    ],
    [
      "lib/metrics imports a feature",
      "lib/metrics/planted.ts",
      'import { MAX_ATTEMPTS } from "@/lib/destinations/constants";',
      /lib\/metrics imports no feature/,
    ],
    [
      "a feature reaches past another's public modules",
      "lib/overview/planted.ts",
      'import { ensureEventPartitions } from "@/lib/webhooks/partitions";',
      /only through webhooks\.ts, types\.ts/,
    ],
    [
      "a feature uses one it has no edge to",
      "lib/team/planted.ts",
      'import { listConnections } from "@/lib/connections/connections";',
      /not an allowed edge/,
    ],
    [
      "a feature uses one that uses it (a cycle)",
      "lib/connections/planted.ts",
      'import { forgetReceiver } from "@/lib/webhooks/webhooks";',
      /not an allowed edge/,
    ],
    ["e2e imports scripts", "e2e/planted.spec.ts", 'import "../scripts/connections";', /never import one another/],
    ["bench imports e2e", "bench/planted.ts", 'import "@/e2e/support/env";', /never import one another/],
    ["tooling imports bench", "tooling/planted.ts", 'import "../bench/page";', /it imports none of them/],
    [
      "the emulator imports lib",
      "emulator/planted.ts",
      'import { logger } from "../lib/logger";',
      /imports nothing from lib/,
    ],
    [
      "lib/service imports connections",
      "lib/service/planted.ts",
      'import type { ConnectionSummary } from "@/lib/connections/types";',
      /knows nothing of connections/,
    ],
  ])("reports %s", async (_, filePath, source, message) => {
    const messages = await boundaryMessages(filePath, source);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(message);
  });

  it.each([
    [
      "a feature uses another's public modules along an allowed edge",
      "lib/overview/planted.ts",
      'import { filtersToQuery } from "@/lib/webhooks/constants";\nimport type { Page } from "@/lib/webhooks/types";\nimport { listConnections } from "@/lib/connections/connections";',
    ],
    [
      "a feature stands on the ground floor",
      "lib/webhooks/planted.ts",
      'import { getDb } from "@/lib/db";\nimport { requireRole } from "@/lib/auth/guards";\nimport { logger } from "@/lib/logger";\nimport { countReceipt } from "@/lib/metrics/metrics";',
    ],
    [
      "a test sets up state through another feature's modules",
      "lib/overview/planted.test.ts",
      'import { ensureEventPartitions } from "@/lib/webhooks/partitions";',
    ],
    [
      "a test helper does too",
      "lib/data-points/test-helpers.ts",
      'import { sealKey } from "@/lib/connections/repository";',
    ],
    [
      "a component imports the server actions it calls",
      "components/team/planted.tsx",
      'import { addTeamMemberAction } from "@/lib/team/actions";',
    ],
    [
      "a test calls a feature's server actions",
      "lib/team/planted.test.ts",
      'import { addTeamMemberAction } from "@/lib/team/actions";',
    ],
    ["e2e uses tooling", "e2e/planted.spec.ts", 'import "../tooling/processes";'],
  ])("allows %s", async (_, filePath, source) => {
    expect(await boundaryMessages(filePath, source)).toEqual([]);
  });

  it("keeps next/link to components/ui/link.tsx, whose links do not prefetch", async () => {
    const source = 'import NextLink from "next/link";\nexport const Home = () => <NextLink href="/">Home</NextLink>;';
    const messages = await boundaryMessages("components/shell/planted.tsx", source, "no-restricted-imports");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/Use Link from @\/components\/ui\/link/);
    expect(await boundaryMessages("components/ui/link.tsx", source, "no-restricted-imports")).toEqual([]);
  });
});
