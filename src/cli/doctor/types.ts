/** The doctor's types live with the engine, below the faces that fill them. */
export type { DoctorCheck, DoctorContext, DoctorFinding, FindingLevel } from "../../engine/doctor-types.js";
