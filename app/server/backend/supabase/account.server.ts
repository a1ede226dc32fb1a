// The signed-in shopper's own account: profile, email change, other sessions, deletion (service role), export.
import { getLog } from "../../platform/log.server";
import { accountDeletedMail } from "../../platform/mailer.server";
import { NOT_CONFIGURED, type AccountCalls } from "../port.server";
import { check, rowsOf } from "./client.server";
import type { SupabaseContext } from "./context.server";

export function account({ supabase, service, mailer, shopTitle }: SupabaseContext): AccountCalls {
  return {
    async getProfile(userId) {
      const { data, error } = await supabase.from("profiles").select("username").eq("id", userId).maybeSingle();
      return { username: (data?.username as string | null | undefined) ?? null, error: check(error) };
    },
    async changeEmail({ email, emailRedirectTo }) {
      const { error } = await supabase.auth.updateUser({ email }, { emailRedirectTo });
      return { error: check(error) };
    },
    async pendingEmail() {
      const { data, error } = await supabase.auth.getUser();
      return { email: data.user?.new_email ?? null, error: error ? check(error) : null };
    },
    async confirmEmailChange(tokenHash) {
      const { data, error } = await supabase.auth.verifyOtp({ token_hash: tokenHash, type: "email_change" });
      return { done: !error && Boolean(data.session), error: check(error) };
    },
    async signOutOthers() {
      const { error } = await supabase.auth.signOut({ scope: "others" });
      return { ended: null, error: check(error) };
    },
    async deleteUser() {
      if (!service)
        return { error: { message: "Account deletion needs SUPABASE_SERVICE_ROLE_KEY.", code: NOT_CONFIGURED, status: 501 } };
      const { data, error } = await supabase.auth.getUser();
      const user = data.user;
      if (!user) return { error: check(error) ?? { message: "Auth session missing!", status: 400 } };
      // The title the mixer saved, read while the session still reads.
      const saved = await supabase.from("shop_settings").select("shop_title").maybeSingle();
      const title = (saved.data as { shop_title: string | null } | null)?.shop_title ?? shopTitle ?? "";
      // GoTrue deletes the row of auth.users in one transaction; public.erase_account runs inside it.
      const deleted = await service.auth.admin.deleteUser(user.id);
      const failed = check(deleted.error);
      if (failed) return { error: failed };
      // The session is gone on the server already: this clears this browser's cookies.
      await supabase.auth.signOut({ scope: "local" });
      if (user.email && mailer) {
        await mailer
          .send(accountDeletedMail(user.email, title))
          .catch((e: unknown) =>
            getLog().warn({ err: e instanceof Error ? e.message : String(e) }, "account deleted email not sent"),
          );
      }
      return { error: null };
    },
    async exportData() {
      const { data: auth } = await supabase.auth.getUser();
      const id = auth.user?.id;
      if (!id) return { data: null, error: { message: "Auth session missing!", status: 400 } };
      const profile = await supabase.from("profiles").select("username, created_at").eq("id", id).maybeSingle();
      const orders = await supabase
        .from("mixtapes")
        .select("*, money:order_money, tape:order_tape")
        .eq("user_id", id)
        .order("created_at")
        .order("id");
      const orderRows = rowsOf(orders.data);
      const messages = orderRows.length
        ? await supabase
            .from("order_messages")
            .select("id, order_id, from_mixer, body, created_at")
            .in(
              "order_id",
              orderRows.map((o) => o.id as number),
            )
            .order("created_at")
            .order("id")
        : { data: [], error: null };
      const emails = await supabase.rpc("my_order_emails");
      const failed = check(profile.error) ?? check(orders.error) ?? check(messages.error) ?? check(emails.error);
      if (failed) return { data: null, error: failed };
      return {
        data: {
          profile: (profile.data as { username: string | null; created_at: unknown } | null) ?? null,
          orders: orderRows,
          messages: rowsOf(messages.data),
          emails: rowsOf(emails.data),
        },
        error: null,
      };
    },
  };
}
