// The storefront is rendered by the parent route; the review dialog is the other child.
export default function HomeIndex() {
  return null;
}
