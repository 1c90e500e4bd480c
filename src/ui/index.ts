/** The dashboard's public surface: what `boulder ui` starts. */
export { DASHBOARD_HOST, type Dashboard, type DashboardOptions, startDashboard } from "./server.js";
