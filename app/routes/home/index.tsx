// "/" itself: the storefront is rendered by the parent (route.tsx); the review dialog
// (review.tsx) is the other child.
export default function HomeIndex() {
  return null;
}
