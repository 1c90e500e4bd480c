/**
 * This machine's fleet membership and its shipper's status, for the CLI: the
 * files are the state layer's (`state/fleet-files.ts`); faces reach them
 * through this door. No PostgreSQL here, so a command that only reads or
 * writes membership loads no client.
 */
export { readShipperStatus, removeFleetMember, shipperRunning, writeFleetMember } from "../state/fleet-files.js";
