import { tenantFromBasicAuth, type RegionContext } from "./context";
import { ApiError, type Reply } from "./http";
import type { Route } from "./routing";
import type { TenantState } from "./state";

function managedTenant(context: RegionContext): TenantState {
  const { state } = context.world;
  return tenantFromBasicAuth(context, (region, key) => state.tenantByManagementKey(region, key), "management API key");
}

function emailOtpConfiguration(context: RegionContext): Reply {
  const tenant = managedTenant(context);
  if (!tenant.emailOtp) throw new ApiError(404, "not_found", "The tenant has no email OTP configuration.");
  return { status: 200, body: { ...tenant.emailOtp, verificationMethod: "EMAIL_OTP" } };
}

function deleteEmailOtpConfiguration(context: RegionContext): Reply {
  const tenant = managedTenant(context);
  if (!context.world.state.deleteEmailOtpConfiguration(tenant)) {
    throw new ApiError(404, "not_found", "The tenant has no email OTP configuration.");
  }
  return { status: 200, body: { success: true } };
}

function customDataPoint(context: RegionContext, [id]: string[]): Reply {
  const tenant = managedTenant(context);
  const point = tenant.customDataPoints.get(id ?? "");
  if (!point) throw new ApiError(404, "not_found", `No custom data point with id ${id}.`);
  return { status: 200, body: point };
}

/** Paths below `{base}/management`. */
export const managementRoutes: Route<RegionContext>[] = [
  {
    pattern: /^\/authenticator-configurations\/email-otp\/?$/,
    methods: { GET: emailOtpConfiguration, DELETE: deleteEmailOtpConfiguration },
  },
  { pattern: /^\/custom-data-points\/([^/]+)\/?$/, methods: { GET: customDataPoint } },
];
