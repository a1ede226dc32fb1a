import { notFound } from "~/server/platform/http.server";

export function loader() {
  throw notFound();
}

export function action() {
  throw notFound();
}

export default function NotFound() {
  return null;
}
