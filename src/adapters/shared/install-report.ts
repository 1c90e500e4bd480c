/** The install report adapters return; its type and lines live in the presentation layer. */
export type { InstallReport, InstallText } from "../../present/render/install.js";
export { installReportLines } from "../../present/render/install.js";
