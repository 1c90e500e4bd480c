/// <reference lib="dom" />
/**
 * The dashboard's markup as plain data, made into DOM elements in the page
 * (`toDom`) or into HTML text on the server (`toHtml`, the first screen sent
 * with the page). Text from outside only ever becomes text nodes or escaped
 * text, never markup. No DOM at import: the server imports this too.
 */

export type Child = VNode | string | null | false | undefined;

export interface VNode {
	tag: string;
	attrs: Record<string, string>;
	children: (VNode | string)[];
	/** Content drawn only when the `details` is first opened (in the page; the server sends it closed). */
	lazy?: () => Child[];
	/** Called with the element once it is made in the page (a fetch that fills it, say). */
	mount?: (element: Element) => void;
}

/** An element with attributes (`data-*`, `aria-*` and the rest) and children. */
export function h(
	tag: string,
	attributes: Record<string, string | number | boolean | null | undefined> = {},
	...children: Child[]
): VNode {
	const attrs: Record<string, string> = {};
	for (const [name, value] of Object.entries(attributes)) {
		if (value === null || value === undefined || value === false) continue;
		attrs[name] = value === true ? "" : String(value);
	}
	return { tag, attrs, children: children.filter((child): child is VNode | string => !!child || child === "") };
}

const SVG = "http://www.w3.org/2000/svg";
const VOID = new Set(["br", "hr", "img", "input", "meta", "link"]);

export function toDom(node: VNode, namespace: string | null = null): Element {
	const ns = node.tag === "svg" ? SVG : namespace;
	const element = ns ? document.createElementNS(ns, node.tag) : document.createElement(node.tag);
	for (const [name, value] of Object.entries(node.attrs)) element.setAttribute(name, value);
	for (const child of node.children) {
		element.append(typeof child === "string" ? document.createTextNode(child) : toDom(child, ns));
	}
	behave(node, element, ns);
	return element;
}

/** Elements that already carry their node's behaviour (drawn by `toDom`, or adopted). */
const behaving = new WeakSet<Element>();

/** Gives the element its node's behaviour: lazy content drawn when first opened, then `mount`. */
function behave(node: VNode, element: Element, ns: string | null): void {
	behaving.add(element);
	const lazy = node.lazy;
	if (lazy) {
		const details = element as HTMLDetailsElement;
		// Drawn already when the element came open (the server draws an open section's content).
		const own = node.children.filter((child) => typeof child !== "string").length;
		let drawn = "open" in node.attrs && element.children.length > own;
		const draw = () => {
			if (drawn) return;
			drawn = true;
			for (const child of lazy()) {
				if (child) details.append(typeof child === "string" ? document.createTextNode(child) : toDom(child, ns));
			}
		};
		if ("open" in node.attrs) draw();
		details.addEventListener("toggle", () => {
			if (details.open) draw();
		});
	}
	node.mount?.(element);
}

/**
 * Makes an element drawn from this same node elsewhere (the server's first
 * screen) behave as if `toDom` had made it, without touching it: the page
 * keeps the element (its focus, its scroll, what a person selected) and only
 * gains the listeners. The caller has checked the two are drawn alike.
 */
export function adopt(node: VNode, element: Element, namespace: string | null = null): void {
	if (behaving.has(element)) return;
	const ns = node.tag === "svg" ? SVG : namespace;
	const children = node.children.filter((child): child is VNode => typeof child !== "string");
	children.forEach((child, index) => {
		const found = element.children[index];
		if (found) adopt(child, found, ns);
	});
	behave(node, element, ns);
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

export function toHtml(node: VNode | string): string {
	if (typeof node === "string") return escapeHtml(node);
	const attrs = Object.entries(node.attrs)
		.map(([name, value]) => (value === "" ? ` ${name}` : ` ${name}="${escapeHtml(value)}"`))
		.join("");
	if (VOID.has(node.tag)) return `<${node.tag}${attrs}>`;
	const lazy = node.lazy && "open" in node.attrs ? node.lazy().filter((child): child is VNode | string => !!child) : [];
	return `<${node.tag}${attrs}>${[...node.children, ...lazy].map(toHtml).join("")}</${node.tag}>`;
}
