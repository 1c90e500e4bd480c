/**
 * What `boulder status` prints: per worktree, whether continuation is on,
 * then its works. Live works (active, paused) get a block with their plan,
 * sessions, next item and last decision; finished works get one line.
 * Sessions that roll their own todo list get a block of their own.
 */
import { clipTitle } from "../../core/clip.js";
import type { ListSessionStatus, StandingCounts, WorkStatusView, WorktreeStatusView } from "../../engine/status.js";
import { formatElapsed, formatWhen } from "../format-time.js";
import type { Style } from "../style.js";
import { explain } from "../why-text.js";
import { progressText, sessionLabel } from "./progress.js";

export interface StatusReport {
	now: number;
	/** `--all`: every worktree in the user-level index. */
	all: boolean;
	worktrees: WorktreeStatusView[];
	/** Worktrees in the index whose folder is gone: skipped. */
	vanished: string[];
	/** `--all`: the index could not be read, so no worktree is known; why, and where it went. */
	indexProblem?: string | null;
	/** Every session in exactly one standing, as the dashboard's header counts them (`--json` only). */
	counts?: StandingCounts;
}

export function renderStatus(report: StatusReport, c: Style): string {
	const blocks = report.worktrees.map((worktree) => renderWorktree(worktree, report.now, c));
	if (report.indexProblem) {
		blocks.unshift(c.red(`${report.indexProblem}; \`boulder doctor\` says more`));
	} else if (report.all && report.worktrees.length === 0 && report.vanished.length === 0) {
		blocks.push(c.dim("No worktrees known yet: `boulder start PLAN.md` in one adds it."));
	}
	if (report.vanished.length > 0) {
		blocks.push(
			c.dim(
				`Skipped ${report.vanished.length} worktree(s) that no longer exist:\n${report.vanished.map((root) => `  ${root}`).join("\n")}`,
			),
		);
	}
	return blocks.join("\n\n");
}

function renderWorktree(view: WorktreeStatusView, now: number, c: Style): string {
	const lines = [c.bold(view.worktree)];
	if (view.problem) {
		lines.push(c.red(`  ${view.problem}; \`boulder doctor\` says what to do`));
		return lines.join("\n");
	}
	if (view.keptIn) {
		lines.push(
			c.dim(
				`  no project here (no git worktree, no work started, boulder not installed here at a project scope): a session's own todo list is continued, its state kept in ${view.keptIn}; \`boulder install <harness> --project\` here keeps it in this folder`,
			),
		);
	}
	if (view.configProblem) {
		lines.push(
			c.red(
				`  boulder's config is invalid, so nothing is continued here until it is fixed: ${view.configProblem}; \`boulder doctor\` explains`,
			),
		);
	}
	if (view.stopped) {
		lines.push(
			c.yellow(
				`  continuation is stopped here (by ${view.stopped.by}, ${formatWhen(view.stopped.at, now)}); \`boulder go\` turns it on`,
			),
		);
	}
	const lists = view.sessions ?? [];
	if (view.works.length === 0 && lists.length === 0) {
		lines.push(c.dim("  no works; `boulder start PLAN.md` starts one"));
		if (view.lastDecision) lines.push(`  ${lastLine(view.lastDecision, now, c)}`);
		return lines.join("\n");
	}
	for (const work of view.works) lines.push(...renderWork(work, now, c));
	for (const session of lists) lines.push(...renderListSession(session, now, c));
	if (view.works.length === 0) lines.push(c.dim("  no plan; `boulder start PLAN.md` rolls one"));
	return lines.join("\n");
}

/** A session rolling its own todo list: a block like a work's, its list standing in for the plan. */
function renderListSession(session: ListSessionStatus, now: number, c: Style): string[] {
	const { counts } = session;
	const progress = progressText({ ...counts, done: counts.done });
	const mark = counts.open > 0 ? c.green("●") : "○";
	const open = counts.open > 0 ? `${counts.open} open` : c.dim("nothing open");
	const lines = [`  ${mark} ${c.bold(sessionLabel(session))}  ${c.dim("its own list")}  ${open}, ${progress}`];
	if (session.stoppedBy) lines.push(c.yellow(`      stopped   by ${session.stoppedBy}`));
	if (session.next) lines.push(`      next      ${session.next}`);
	if (session.lastDecision) lines.push(`      ${lastLine(session.lastDecision, now, c)}`);
	return lines;
}

/** Why boulder leaves a live work alone here (docs/trust.md), and the command that takes it on. */
const FOREIGN_TEXT = {
	"not-recorded":
		"yet: boulder did not record that you started it on this machine (it came with the checkout or a copy, or from a boulder before trust records), so it neither nudges nor verifies it; `boulder trust` takes it on",
	"other-worktree":
		"yet: it names another folder as its worktree, so boulder neither nudges nor verifies it here; `boulder trust` moves it to this one",
} as const;

const STATUS_COLOR = { active: "green", paused: "yellow", completed: "cyan", abandoned: "dim" } as const;

function renderWork(work: WorkStatusView, now: number, c: Style): string[] {
	const status = c[STATUS_COLOR[work.status]](work.status);
	const progress = work.progress ? progressText(work.progress) : c.red("progress unknown");
	const mark = work.active ? c.green("●") : "○";
	const head = `  ${mark} ${c.bold(clipTitle(work.name))} ${c.dim(`(${work.id})`)}  ${status}  ${progress}  ${formatElapsed(work.elapsedMs)}`;
	if (work.status === "completed" || work.status === "abandoned") return [head];
	const lines = [head, `      plan      ${work.planPath}`];
	if (work.planProblem) lines.push(c.red(`      problem   ${work.planProblem}`));
	if (work.foreign) lines.push(c.yellow(`      not yours ${FOREIGN_TEXT[work.foreign]}`));
	const sessions = work.sessions.map((session) => {
		const stopped = session.stoppedBy ? c.yellow(` stopped by ${session.stoppedBy}`) : "";
		return `${sessionLabel(session)} ${c.dim(`(${session.how})`)}${stopped}`;
	});
	lines.push(
		`      sessions  ${sessions.length > 0 ? sessions.join(", ") : c.dim("none yet: the next session to go idle joins")}`,
	);
	if (work.next) lines.push(`      next      ${clipTitle(work.next)}`);
	if (work.orchestrate) lines.push(`      mode      orchestrate ${c.dim("(items are delegated to subagents)")}`);
	for (const { item, session } of work.subagents ?? []) {
		lines.push(`      subagent  ${session} ${c.dim("worked on")} ${item}`);
	}
	if (work.lastVerification && !work.lastVerification.passed) {
		lines.push(
			c.red(
				`      verify    \`${work.lastVerification.command ?? "?"}\` failed (${formatWhen(work.lastVerification.at, now)})`,
			),
		);
	}
	if (work.lastDecision) lines.push(`      ${lastLine(work.lastDecision, now, c)}`);
	return lines;
}

function lastLine(record: Parameters<typeof explain>[0], now: number, c: Style): string {
	const said = explain(record, now);
	return `${c.dim("last")}      ${formatWhen(record.at, now)}  ${said.headline}: ${said.text}`;
}
