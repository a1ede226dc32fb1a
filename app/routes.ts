import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  route("auth", "routes/auth.tsx"),
  route("auth/confirm", "routes/auth.confirm.tsx"),
  route("auth/forgot", "routes/auth.forgot.tsx"),
  route("auth/reset", "routes/auth.reset.tsx"),
  route("account", "routes/account.tsx"),
  route("account/data", "routes/account.data.ts"),
  route("account/email", "routes/account.email.tsx"),
  route("logout", "routes/logout.tsx"),
  route("healthz", "routes/healthz.ts"),
  route("readyz", "routes/readyz.ts"),
  route("client-errors", "routes/client-errors.ts"),
  route("my-mixtapes", "routes/my-mixtapes.tsx"),
  route("mixer", "routes/mixer/route.tsx"),
  route("mixer/orders.csv", "routes/mixer/orders-csv.ts"),
  route("mixer/shop", "routes/mixer/shop.tsx"),
  route("mixer/payments", "routes/mixer/payments.tsx"),
  route("mixer/payments.csv", "routes/mixer/payments-csv.ts"),
  route("webhooks/:provider", "routes/webhooks.ts"),
  route("my-mixtapes/:code", "routes/my-mixtapes.order.tsx"),
  route("my-mixtapes/:code/tape", "routes/my-mixtapes.tape.ts"),
  route("mixer/orders/:code", "routes/mixer/order.tsx"),
  route("mixer/orders/:code/tape", "routes/mixer/tape.ts"),
  // tus: the uploads' URL and each upload's own below it (the splat matches both).
  route("mixer/uploads/*", "routes/mixer/uploads.ts"),
  route("mixer/insights", "routes/mixer/insights.tsx"),
  route("/", "routes/home/route.tsx", { id: "routes/home" }, [
    index("routes/home/index.tsx"),
    route("review", "routes/home/review.tsx"),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
