/** Every check `boulder doctor` runs, in order: boulder's own first, then the adapters'. */
import { ADAPTER_CHECKS } from "./adapter-checks.js";
import { configCheck } from "./config-check.js";
import { stateCheck } from "./state-check.js";
import type { DoctorCheck, DoctorContext, DoctorFinding } from "./types.js";

export const BUILTIN_CHECKS: readonly DoctorCheck[] = [stateCheck, configCheck];

export function doctorChecks(): DoctorCheck[] {
	return [...BUILTIN_CHECKS, ...ADAPTER_CHECKS];
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
