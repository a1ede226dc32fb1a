// A toast as the server flashes it and the page shows it: data, shared by both sides.
export type Toast = {
  id: string;
  type: "success" | "error" | "info" | "warning";
  message: string;
  description?: string;
  notice?: string;
  resendFor?: string;
  /** The id of the place on the page that shows this answer in line, instead of a toast over the page. */
  place?: string;
  /** A console card that left the list: the card it stood before, where its answer stays. */
  before?: string;
};
