// The storefront itself is rendered by routes/home.tsx; the review dialog is its
// other child (routes/home.review.tsx).
export default function HomeIndex() {
  return null;
}
