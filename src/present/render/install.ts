/**
 * What an installer did to a harness's config file, and how it is said: the
 * same report and the same lines for every harness, in each harness's own
 * words (`InstallText`).
 */
import type { Style } from "../style.js";

export interface InstallReport {
	file: string;
	/** installed: there were none; updated: older entries replaced; unchanged: already so; removed; absent: nothing to remove. */
	action: "installed" | "updated" | "unchanged" | "removed" | "absent";
	/** Where the previous file was copied, or null when nothing was written or there was no file. */
	backup: string | null;
	/** boulder's entries added or removed. */
	entries: number;
}

export interface InstallText {
	installed(file: string, entries: number): string;
	updated(file: string): string;
	unchanged(file: string): string;
	removed(file: string, entries: number): string;
	notInstalled(file: string): string;
	backup(file: string): string;
	restart: string;
}

/**
 * The lines to print for a report; `extra` follows a fresh install (e.g. a
 * warning about its scope), `always` follows every install, changed or not
 * (what else it set, or what the user still has to turn on).
 */
export function installReportLines(
	report: InstallReport,
	text: InstallText,
	c: Style,
	extra: string[] = [],
	always: string[] = [],
): string[] {
	const lines: string[] = [];
	switch (report.action) {
		case "installed":
			lines.push(
				c.green(text.installed(report.file, report.entries)),
				text.restart,
				...extra.map((line) => c.dim(line)),
			);
			break;
		case "updated":
			lines.push(c.green(text.updated(report.file)), text.restart);
			break;
		case "unchanged":
			lines.push(text.unchanged(report.file));
			break;
		case "removed":
			lines.push(c.green(text.removed(report.file, report.entries)), text.restart);
			break;
		case "absent":
			lines.push(text.notInstalled(report.file));
			break;
	}
	lines.push(...always);
	if (report.backup) lines.push(c.dim(text.backup(report.backup)));
	return lines;
}

/** A harness as `boulder install` lists it when none was named. */
export interface HarnessChoice {
	name: string;
	title: string;
	program: string;
	defaultScope: string;
	/** Where its command is on the PATH; null: not found there. */
	foundAt: string | null;
}

/** `boulder install` with no harness: which there are, which this machine has, and the command for each. */
export function harnessMenuLines(
	action: "install" | "uninstall",
	choices: readonly HarnessChoice[],
	c: Style,
): string[] {
	const width = Math.max(...choices.map((choice) => choice.name.length));
	const found = choices.filter((choice) => choice.foundAt !== null);
	const lines = [`Name the harness: boulder ${action} <harness>, with a scope (--project, --user, …) or without`, ""];
	for (const choice of choices) {
		const where =
			choice.foundAt === null ? c.dim(`\`${choice.program}\` not on the PATH`) : `found at ${choice.foundAt}`;
		lines.push(`  ${choice.name.padEnd(width)}  ${choice.title}: ${where}; default --${choice.defaultScope}`);
	}
	if (action === "install" && found.length > 0) {
		lines.push("", `On this machine: ${found.map((choice) => `boulder install ${choice.name}`).join(", ")}`);
	}
	return lines;
}

/** A project install in a folder that was no project: it is one now, and keeps boulder's state in itself. */
export function projectMadeLine(folder: string, c: Style): string {
	return c.dim(
		`${folder} is no git worktree: with boulder installed here it is a project now, and keeps boulder's state in its own .boulder/ (git-ignored).`,
	);
}
