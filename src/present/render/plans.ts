/** What `boulder plans` prints: one block per plan with its progress and problems. */

import type { PlanSummary } from "../../engine/plan-list.js";
import type { Style } from "../style.js";
import { progressText } from "./progress.js";

export function renderPlans(plans: readonly PlanSummary[], c: Style): string {
	if (plans.length === 0) {
		return c.dim(
			"No plans found: no work was started here and .boulder/plans/ has none. Name plan files or folders: `boulder plans PLAN.md docs/`.",
		);
	}
	return plans.map((plan) => renderPlan(plan, c)).join("\n");
}

function renderPlan(plan: PlanSummary, c: Style): string {
	if (plan.problem) return `${c.red("✗")} ${plan.path}  ${c.red(plan.problem)}`;
	const progress = plan.progress ? progressText(plan.progress) : "";
	const work = plan.work ? `  ${c.cyan(`${plan.work.status} as ${plan.work.id}`)}` : "";
	const mark = plan.errors.length > 0 ? c.red("✗") : plan.progress?.open === 0 ? c.green("✓") : "•";
	const lines = [`${mark} ${c.bold(plan.name ?? plan.path)}  ${c.dim(plan.path)}  ${progress}${work}`];
	if (plan.progress?.total === 0) lines.push(c.yellow("    no top-level checkbox items (- [ ] …) to work through"));
	if (plan.next) lines.push(`    next  ${plan.next}`);
	for (const error of plan.errors) lines.push(c.red(`    ${plan.path}:${error.line}: ${error.reason}`));
	return lines.join("\n");
}
