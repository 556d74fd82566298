import { describe, expect, it } from "vitest";

import { curlReplayCommand } from "./curl";

describe("curlReplayCommand", () => {
  it("posts the raw body as JSON with placeholders for the URL and the signature", () => {
    const command = curlReplayCommand('{"id":"evt_1","data":{"deviceName":"Kim\'s phone"}}', "Acme");
    expect(command).toContain(`curl -X POST "\${WEBHOOK_URL:-https://<console>/api/webhooks/<token>}"`);
    expect(command).toContain("-H 'Content-Type: application/json'");
    expect(command).toContain("-H 'X-Signature-V2: <signature>'");
    // The single quote in the body survives the shell's quoting.
    expect(command).toContain(`--data-raw '{"id":"evt_1","data":{"deviceName":"Kim'\\''s phone"}}'`);
    expect(command).toMatch(/^# Replay to Acme/);
  });

  it("keeps a stored name with a line break inside its comment line", () => {
    // Stored before names refused control characters: the part after the newline must not become a command.
    const command = curlReplayCommand("{}", "Acme\ntouch /tmp/pwned #\r\u0085");
    const lines = command.split(/\r\n|\r|\n|\u0085/);
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe(
      "# Replay to Acme\uFFFDtouch /tmp/pwned #\uFFFD\uFFFD: set WEBHOOK_URL to its webhook URL (on the connection's page)",
    );
    expect(lines.filter((line) => line.includes("touch"))).toEqual([lines[0]]);
  });
});
