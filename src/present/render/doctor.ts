/** What `boulder doctor` prints: one line per finding, how to fix it, and a verdict. */
import type { DoctorFinding, FindingLevel } from "../../engine/doctor-types.js";
import type { Style } from "../style.js";

const MARK: Record<FindingLevel, { mark: string; color: keyof Style }> = {
	ok: { mark: "✓", color: "green" },
	warn: { mark: "!", color: "yellow" },
	problem: { mark: "✗", color: "red" },
};

export function renderDoctor(findings: readonly DoctorFinding[], c: Style): string {
	const width = Math.max(8, ...findings.map((finding) => finding.check.length + 2));
	const lines: string[] = [];
	for (const finding of findings) {
		const { mark, color } = MARK[finding.level];
		const paint = c[color] as (text: string) => string;
		lines.push(`${paint(mark)} ${finding.check.padEnd(width)}${finding.message}`);
		if (finding.fix) lines.push(`  ${" ".repeat(width)}${c.dim("fix:")} ${finding.fix}`);
	}
	const problems = findings.filter((finding) => finding.level === "problem").length;
	const warnings = findings.filter((finding) => finding.level === "warn").length;
	lines.push("");
	if (problems > 0) lines.push(c.red(`${problems} problem(s) found${warnings > 0 ? `, ${warnings} warning(s)` : ""}.`));
	else if (warnings > 0) lines.push(c.yellow(`No problems; ${warnings} warning(s).`));
	else lines.push(c.green("Everything looks right."));
	return lines.join("\n");
}
