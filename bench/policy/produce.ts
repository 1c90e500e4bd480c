/**
 * Everything the benchmark produces, as text: the printed table with
 * boulder's targets, the Markdown report and the chart. Pure: the same seeds
 * give the same bytes.
 */
import { DEFAULT_CONFIG } from "../../src/core/default-config.js";
import { textTable } from "./format.js";
import { CONTESTANTS } from "./policies/index.js";
import { PROFILES } from "./profiles/index.js";
import { renderMarkdown } from "./report-md.js";
import { renderSvg } from "./report-svg.js";
import { HEADLINE_HEADER, headlineRows } from "./report-table.js";
import { runBench, seedsOf } from "./run.js";
import { summarizeAll } from "./summary.js";
import { checkTargets } from "./targets.js";
import { DEFAULT_CAPS } from "./world.js";

export interface Outputs {
	table: string;
	markdown: string;
	svg: string;
}

/** Everything the benchmark produces, as text. */
export function produce(baseSeed: number, seedCount: number): Outputs {
	const options = { baseSeed, seedCount };
	const results = runBench(options);
	const summaries = summarizeAll(results);
	const targets = checkTargets(results, "boulder", DEFAULT_CONFIG.stagnationLimit);
	const table = [
		textTable(HEADLINE_HEADER, headlineRows(summaries)),
		"",
		"boulder against the targets:",
		...targets.map((check) => `  [${check.met ? "met " : "MISS"}] ${check.target}: ${check.detail}`),
	].join("\n");
	const markdown = renderMarkdown({
		results,
		summaries,
		targets,
		profiles: PROFILES,
		contestants: CONTESTANTS,
		seeds: seedsOf(options),
		caps: DEFAULT_CAPS,
		config: DEFAULT_CONFIG,
	});
	const svg = renderSvg({ summaries, subject: "boulder", profiles: PROFILES.length, seeds: seedCount });
	return { table, markdown, svg };
}
