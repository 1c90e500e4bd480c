/** The fleet over PostgreSQL (docs/fleet.md): the public surface the CLI and the dashboard use. */
export { type Applied, applyCommand, type FleetAction, type FleetCommand, fleetBy, type TargetKind } from "./apply.js";
export { type CommandRow, machineKnown, type PostCommand, postCommand, readCommand } from "./commands.js";
export { type FleetSettings, fleetSettings, machineName, redact, redactUrl, settingsFrom } from "./config.js";
export { connectFleet, type Db, messageOf } from "./db.js";
export { FLEET_STATES, type FleetState, sessionState, workState } from "./fleet-state.js";
export { createOtelSink, type OtelSink, otelAttributes, otelEnabled } from "./otel.js";
export { type FleetFilter, type FleetMachineView, type FleetReport, readFleet } from "./read.js";
export { FLEET_SCHEMA_VERSION, migrate, schemaVersion } from "./schema.js";
export {
	type Backlog,
	CHANNEL_COMMANDS,
	CHANNEL_ROWS,
	DEFAULT_LINGER_MS,
	readBacklog,
	runShipper,
	ShipperBusy,
	type ShipResult,
	shipPass,
} from "./shipper.js";
