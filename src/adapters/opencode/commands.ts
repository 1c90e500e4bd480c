/**
 * The OpenCode adapter's part of the CLI: what `boulder install opencode` and
 * `boulder uninstall opencode` do and print. The CLI's `install` command
 * dispatches here through its per-harness table (`src/cli/commands/install.ts`).
 */
import type { Cli } from "../../cli/context.js";
import { EXIT } from "../../cli/exit-codes.js";
import { type InstallReport, type InstallScope, installOpenCode, uninstallOpenCode } from "./install.js";
import { INSTALL_TEXT } from "./messages.js";

export async function runOpenCodeInstall(
	cli: Cli,
	action: "install" | "uninstall",
	scope: InstallScope,
): Promise<void> {
	const place = { cwd: cli.io.cwd, env: cli.io.env, scope };
	const report = action === "install" ? await installOpenCode(place) : await uninstallOpenCode(place);
	printReport(cli, report, scope);
	cli.exitCode = EXIT.ok;
}

function printReport(cli: Cli, report: InstallReport, scope: InstallScope): void {
	const c = cli.colors();
	const lines: string[] = [];
	switch (report.action) {
		case "installed":
			lines.push(c.green(INSTALL_TEXT.installed(report.file)), INSTALL_TEXT.restart);
			if (scope === "project") lines.push(c.dim(INSTALL_TEXT.machineLocal));
			break;
		case "updated":
			lines.push(c.green(INSTALL_TEXT.updated(report.file)), INSTALL_TEXT.restart);
			break;
		case "unchanged":
			lines.push(INSTALL_TEXT.unchanged(report.file));
			break;
		case "removed":
			lines.push(c.green(INSTALL_TEXT.removed(report.file, report.entries)), INSTALL_TEXT.restart);
			break;
		case "absent":
			lines.push(INSTALL_TEXT.notInstalled(report.file));
			break;
	}
	if (report.backup) lines.push(c.dim(INSTALL_TEXT.backup(report.backup)));
	cli.out(lines.join("\n"));
}
