import { handleCreateDestination, handleListDestinations } from "@/lib/destinations/api-destinations";

export const GET = (request: Request) => handleListDestinations(request);
export const POST = (request: Request) => handleCreateDestination(request);
