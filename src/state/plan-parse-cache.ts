/**
 * The plan-parse cache: the last parse of each plan a worktree's works name,
 * with the exact text it was made from, so that a hook, which reads the plan
 * on every event, parses it only when it changed (a tick, an edit) instead of
 * on every event. One file per worktree and plan path, under the user's
 * state folder (`plan-cache/`), never in the worktree: a checkout cannot hand
 * boulder a parse of its choosing.
 *
 * A cache, not state: it holds nothing the plan does not. A file that is
 * missing, torn, of another format or of another shape, or of another text,
 * reads as a miss, is never moved aside or reported, and is replaced whole by
 * the next write, made without flushing to disk. Only a parse without errors
 * is kept (a plan with errors is not worked from).
 *
 * Contract: `readPlanParse` returns a parse only for the very text it was
 * made from, by this format of the parser (`PLAN_PARSE_FORMAT`).
 */
import path from "node:path";
import { PLAN_MODES } from "../core/front-matter.js";
import { arrayOf, bool, exactly, fields, handCheck, int, nullOr, num, oneOf, str } from "../core/hand-check.js";
import { hash64 } from "../core/hash.js";
import { type ParsedPlan, PLAN_PARSE_FORMAT, type PlanItem, parsedPlanOf } from "../core/plan-parser.js";
import { TODO_STATUSES } from "../core/todos.js";
import { ensureDir, writeFileAtomic } from "./atomic-write.js";
import { closeStateFile, openStateFileSync, readOpenedStateFileSync } from "./state-file.js";

const CACHE_DIR = "plan-cache";

/** The cache file of one plan of one worktree. */
export function planParseFile(stateHome: string, worktree: string, planPath: string): string {
	return path.join(stateHome, CACHE_DIR, `${hash64(`${path.resolve(worktree)}\0${planPath}`)}.json`);
}

/** The kept parse of `text`, or null (see the header). Never throws. */
export function readPlanParse(file: string, text: string, source: string): ParsedPlan | null {
	let bytes: Buffer;
	try {
		const opened = openStateFileSync(file);
		if (opened === null) return null;
		try {
			bytes = readOpenedStateFileSync(opened.fd);
		} finally {
			closeStateFile(opened.fd);
		}
	} catch {
		// Unreadable, or not a regular file: a miss, as the header says.
		return null;
	}
	let value: unknown;
	try {
		value = JSON.parse(bytes.toString("utf8"));
	} catch {
		return null;
	}
	const kept = checkKept(value);
	if (kept === undefined || kept.text !== text) return null;
	return parsedPlanOf(kept.items, kept.frontMatter, source);
}

/** Keeps the parse of `text`; a plan with errors is not kept. */
export async function writePlanParse(file: string, text: string, plan: ParsedPlan): Promise<void> {
	if (plan.errors.length > 0) return;
	await ensureDir(path.dirname(file));
	const kept = { format: PLAN_PARSE_FORMAT, text, items: plan.items, frontMatter: plan.frontMatter };
	await writeFileAtomic(file, JSON.stringify(kept), { durable: false });
}

const checkKept = handCheck((value: unknown) => {
	const kept = fields(value, ["format", "text", "items", "frontMatter"]);
	exactly(kept.format, PLAN_PARSE_FORMAT);
	const front = fields(kept.frontMatter, ["verify", "verifyTimeoutMs", "name", "mode"]);
	return {
		text: str(kept.text),
		items: arrayOf(kept.items, checkItem),
		frontMatter: {
			verify: arrayOf(front.verify, str),
			verifyTimeoutMs: nullOr(front.verifyTimeoutMs, num),
			name: nullOr(front.name, str),
			mode: nullOr(front.mode, (mode) => oneOf(mode, PLAN_MODES)),
		},
	};
});

function checkItem(value: unknown): PlanItem {
	const item = fields(value, ["title", "status", "line", "criteria", "section"]);
	return {
		title: str(item.title),
		status: oneOf(item.status, TODO_STATUSES),
		line: int(item.line, 1),
		criteria: arrayOf(item.criteria, (entry) => {
			const criterion = fields(entry, ["text", "checked", "line"]);
			return { text: str(criterion.text), checked: bool(criterion.checked), line: int(criterion.line, 1) };
		}),
		section: nullOr(item.section, str),
	};
}
