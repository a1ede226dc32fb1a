// Times and waits, in words: the storefront's bundle carries none of them (text.ts holds what its forms use).

export function humanWait(seconds: number): string {
  if (seconds < 45) return "a few seconds";
  const minutes = Math.round(seconds / 60);
  if (minutes <= 1) return "about a minute";
  if (minutes < 90) return `about ${minutes} minutes`;
  return `about ${Math.round(minutes / 60)} hours`;
}

/** An upload's time left, rounded honestly: 16 s is "about 20 seconds", never "a few". */
export function timeLeftWords(seconds: number): string {
  if (seconds < 10) return "a few seconds";
  if (seconds < 45) return `about ${Math.round(seconds / 10) * 10} seconds`;
  return humanWait(seconds);
}

// Made on first use: building it loads ICU data, a long task on a slow phone for every page that imports this module.
let placed: Intl.DateTimeFormat | undefined;

/** The server and the browser must write it the same way. */
export const formatPlaced = (iso: string) =>
  `${(placed ??= new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })).format(new Date(iso)).replace(/\u202f/g, " ")} UTC`;

let placedDay: Intl.DateTimeFormat | undefined;

/** A date without its time, as the server writes it: "Nov 28, 2026". */
export const formatPlacedDate = (iso: string) =>
  (placedDay ??= new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" })).format(new Date(iso));

const localDays = new Map<string, Intl.DateTimeFormat>();

/** The date in the browser's time zone (or the one given): "Nov 28, 2026". */
export function formatLocalDate(iso: string, timeZone?: string): string {
  const key = timeZone ?? "";
  let format = localDays.get(key);
  if (!format) localDays.set(key, (format = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone })));
  return format.format(new Date(iso));
}

const locals = new Map<string, { time: Intl.DateTimeFormat; zone: Intl.DateTimeFormat }>();

/** In the browser's time zone (or the one given), with its short name: "Nov 23, 2026, 11:34 AM GMT+9". */
export function formatLocal(iso: string, timeZone?: string): string {
  const key = timeZone ?? "";
  let format = locals.get(key);
  if (!format) {
    format = {
      time: new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone }),
      zone: new Intl.DateTimeFormat("en-US", { timeZoneName: "short", timeZone }),
    };
    locals.set(key, format);
  }
  const date = new Date(iso);
  const zone = format.zone.formatToParts(date).find((p) => p.type === "timeZoneName")?.value;
  const text = format.time.format(date).replace(/\u202f/g, " ");
  return zone ? `${text} ${zone}` : text;
}
