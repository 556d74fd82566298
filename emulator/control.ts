import type { IncomingMessage } from "node:http";

import { z } from "zod";

import { FAULT_MODES } from "./faults";
import { ApiError, readJsonBody, type Reply } from "./http";
import type { Route } from "./routing";
import { authenticatorInputSchema, describeIssues, MAX_WEBHOOK_DELAY_SECONDS, REGIONS } from "./seed";
import type { StoredAuthenticator, TenantState } from "./state";
import type { EmulatorWorld } from "./world";

export interface ControlContext {
  world: EmulatorWorld;
  req: IncomingMessage;
  url: URL;
}

const webhookSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).nullable(),
  delaySeconds: z.number().int().min(0).max(MAX_WEBHOOK_DELAY_SECONDS).optional(),
});
const advanceSchema = z.strictObject({
  seconds: z
    .number()
    .positive()
    .max(10 * 365 * 86_400),
});
// No body: a story without end.
const storySchema = z
  .strictObject({
    durationSeconds: z
      .number()
      .positive()
      .max(30 * 86_400)
      .optional(),
  })
  .default({});
const faultSchema = z.strictObject({
  region: z.enum(REGIONS),
  mode: z.enum(FAULT_MODES),
  count: z.number().int().positive().optional(),
  seconds: z.number().positive().optional(),
});

async function readInput<T>(context: ControlContext, schema: z.ZodType<T>): Promise<T> {
  const result = schema.safeParse(await readJsonBody(context.req));
  if (!result.success) throw new ApiError(400, "invalid_request", describeIssues(result.error));
  return result.data;
}

function tenantOrNotFound(context: ControlContext, id: string | undefined): TenantState {
  const tenant = context.world.state.tenantById(id ?? "");
  if (!tenant) throw new ApiError(404, "not_found", `No tenant with id ${id}.`);
  return tenant;
}

function describeStoredAuthenticator({ expiresAtMs, ...rest }: StoredAuthenticator): Record<string, unknown> {
  return { ...rest, expiresAt: expiresAtMs === null ? null : new Date(expiresAtMs).toISOString() };
}

function clockSummary(world: EmulatorWorld): { now: string; offsetSeconds: number } {
  return { now: world.clock.nowIso(), offsetSeconds: world.clock.offsetSeconds };
}

function stateSummary({ world }: ControlContext): Reply {
  const { state, deliveries, faults } = world;
  const tenants = state.tenants.map((tenant) => ({
    id: tenant.id,
    name: tenant.name,
    region: tenant.region,
    webhookUrl: tenant.webhookUrl,
    webhookDelaySeconds: tenant.webhookDelaySeconds,
    users: tenant.users.size,
    authenticators: state.countAuthenticators(tenant),
    hasEmailOtpConfiguration: tenant.emailOtp !== null,
  }));
  const body = {
    clock: clockSummary(world),
    tenants,
    pendingDeliveries: deliveries.pendingCount,
    faults: faults.active(),
    story: world.story?.summary() ?? null,
  };
  return { status: 200, body };
}

async function addAuthenticator(context: ControlContext, [tenantId, userId]: string[]): Promise<Reply> {
  const tenant = tenantOrNotFound(context, tenantId);
  const input = await readInput(context, authenticatorInputSchema);
  const stored = context.world.state.addAuthenticator(tenant, userId ?? "", input);
  return { status: 201, body: describeStoredAuthenticator(stored) };
}

async function setWebhook(context: ControlContext, [tenantId]: string[]): Promise<Reply> {
  const tenant = tenantOrNotFound(context, tenantId);
  const input = await readInput(context, webhookSchema);
  tenant.webhookUrl = input.url;
  if (input.delaySeconds !== undefined) tenant.webhookDelaySeconds = input.delaySeconds;
  return { status: 200, body: { url: tenant.webhookUrl, delaySeconds: tenant.webhookDelaySeconds } };
}

async function advanceClock(context: ControlContext): Promise<Reply> {
  const { seconds } = await readInput(context, advanceSchema);
  context.world.clock.advance(seconds);
  await context.world.runDueWork();
  return { status: 200, body: clockSummary(context.world) };
}

function deliveryAttempts({ world, url }: ControlContext): Reply {
  const filter = {
    tenantId: url.searchParams.get("tenantId") ?? undefined,
    eventId: url.searchParams.get("eventId") ?? undefined,
  };
  return { status: 200, body: world.deliveries.attempts(filter) };
}

async function setFault(context: ControlContext): Promise<Reply> {
  const input = await readInput(context, faultSchema);
  context.world.faults.set(input.region, input.mode, input.count, input.seconds);
  return { status: 200, body: { faults: context.world.faults.active() } };
}

function clearFaults({ world }: ControlContext): Reply {
  world.faults.clear();
  return { status: 200, body: { success: true } };
}

async function startStory(context: ControlContext): Promise<Reply> {
  const input = await readInput(context, storySchema);
  const story = context.world.startStory(input);
  return { status: 200, body: { story: story.summary() } };
}

function stopStory({ world }: ControlContext): Reply {
  world.stopStory();
  return { status: 200, body: { success: true } };
}

function reset({ world }: ControlContext): Reply {
  world.reset();
  return { status: 200, body: { success: true } };
}

/** Paths below `/_emulator`. */
export const controlRoutes: Route<ControlContext>[] = [
  { pattern: /^\/state\/?$/, methods: { GET: stateSummary } },
  { pattern: /^\/tenants\/([^/]+)\/users\/([^/]+)\/authenticators\/?$/, methods: { POST: addAuthenticator } },
  { pattern: /^\/tenants\/([^/]+)\/webhook\/?$/, methods: { PUT: setWebhook } },
  { pattern: /^\/clock\/?$/, methods: { GET: ({ world }) => ({ status: 200, body: clockSummary(world) }) } },
  { pattern: /^\/clock\/advance\/?$/, methods: { POST: advanceClock } },
  { pattern: /^\/deliveries\/?$/, methods: { GET: deliveryAttempts } },
  { pattern: /^\/faults\/?$/, methods: { POST: setFault, DELETE: clearFaults } },
  { pattern: /^\/story\/?$/, methods: { POST: startStory, DELETE: stopStory } },
  { pattern: /^\/reset\/?$/, methods: { POST: reset } },
];
