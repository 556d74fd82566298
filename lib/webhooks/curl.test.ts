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
});
