/** Every check `boulder doctor` runs, in order: boulder's own first, then each adapter's. */
import type { AdapterRegistry } from "../../adapters/registry.js";
import type { DoctorCheck, DoctorContext, DoctorFinding } from "../../engine/doctor-types.js";
import { stateCheck } from "../../engine/state-check.js";
import { configCheck } from "./config-check.js";

/** The fleet's check (docs/fleet.md), loaded only when the doctor runs. */
const fleetCheck: DoctorCheck = {
	name: "fleet",
	run: async (context) => (await import("../../fleet/doctor.js")).fleetCheck.run(context),
};

export const BUILTIN_CHECKS: readonly DoctorCheck[] = [stateCheck, configCheck, fleetCheck];

export function doctorChecks(adapters: AdapterRegistry): DoctorCheck[] {
	return [...BUILTIN_CHECKS, ...adapters.all.map((adapter) => adapter.doctor)];
}
/** Runs each check; a check that throws is itself a problem, and the others still run. */
export async function runDoctor(context: DoctorContext, checks: readonly DoctorCheck[]): Promise<DoctorFinding[]> {
	const findings: DoctorFinding[] = [];
	for (const check of checks) {
		try {
			findings.push(...(await check.run(context)));
		} catch (error) {
			findings.push({
				check: check.name,
				level: "problem",
				message: `the check itself failed: ${error instanceof Error ? error.message : String(error)}`,
				fix: "report this as a boulder bug, with the message",
			});
		}
	}
	return findings;
}
