/** The dashboard's public surface: what `boulder ui` starts. */

export { type FleetDashboard, type FleetDashboardOptions, startFleetDashboard } from "./fleet-page.js";
export { DASHBOARD_HOST, type Dashboard, type DashboardOptions, startDashboard } from "./server.js";
