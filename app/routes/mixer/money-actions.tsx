// The card's money by hand. A second click never does the next thing: after Mark Paid its place holds
// the undo's disclosure (a click there only opens it), and a refund by hand is never there at all: it sits
// behind its own disclosure, its button naming the amount it records (decisions/022-hand-marks.md). On the
// queue's card each form is rendered only once opened (card-action.tsx, Disclosure).
import { useState } from "react";
import { CONSOLE_COPY } from "~/domain/copy-console";
import { formatMoney, majorUnits, parseAmount, type Movement } from "~/domain/money";
import { minimumPrice } from "~/domain/price";
import type { QueuedOrder } from "~/domain/orders";
import { Action, AmountField, Disclosure, type ActionProps, type FormPlace, type FormValues } from "./card-action";

type Shared = Omit<ActionProps, "intent" | "label" | "pending" | "fields" | "children">;

/** What stands where Mark Paid stood: Mark Paid while unpaid, else the newest mark by hand while it can be undone. */
export function MarkPaidPlace({
  order,
  typed,
  action,
  place,
}: {
  order: QueuedOrder;
  typed: FormValues | null;
  action: Shared;
  /** On the queue's card behind its summary, so the card's one primary action stands alone; open on the order's page. */
  place: FormPlace;
}) {
  if (!order.paid && order.status !== "cancelled") {
    return (
      <Disclosure
        place={place}
        intent="mark-paid"
        summary={CONSOLE_COPY.markPaidByHand}
        open={typed?.intent === "mark-paid" || place.on === "page"}
        className="w-auto open:w-full"
        testId="mark-paid"
      >
        <Action
          {...action}
          intent="mark-paid"
          label={CONSOLE_COPY.markPaid}
          pending={CONSOLE_COPY.marking}
          fields={{ token: order.markToken, currency: "USD" }}
          quiet
        >
          <AmountField
            code={order.code}
            intent="mark-paid"
            currency="USD"
            value={(typed?.intent === "mark-paid" && typed.amount) || minimumPrice().typed}
          />
        </Action>
      </Disclosure>
    );
  }
  const mark = order.money.movements.find((m) => m.undo && m.event && m.kind !== "dispute");
  return mark ? <UndoMark mark={mark} action={action} place={place} /> : null;
}

function UndoMark({ mark, action, place }: { mark: Movement; action: Shared; place: FormPlace }) {
  const kind = mark.kind === "payment" ? "payment" : "refund";
  const money = formatMoney(mark.amount, mark.currency) ?? "";
  return (
    <Disclosure
      place={place}
      intent="undo-mark"
      summary={CONSOLE_COPY.undoSummary(kind, money)}
      open={false}
      className="w-auto open:w-full"
      testId="undo-mark"
    >
      <p className="text-xs text-muted">{CONSOLE_COPY.undoHint}</p>
      <Action
        {...action}
        intent="undo-mark"
        fields={{ event: mark.event! }}
        label={CONSOLE_COPY.undoButton(kind, money)}
        pending={CONSOLE_COPY.undoing}
        quiet
      />
    </Disclosure>
  );
}

/** Closed until opened (or until the server asks to confirm an amount): its button says what it records. */
export function RefundByHand({
  order,
  typed,
  action,
  place,
}: {
  order: QueuedOrder;
  typed: FormValues | null;
  action: Shared;
  place: FormPlace;
}) {
  // What is due back first, else what is left to refund; an amount nobody recorded cannot be refunded by amount.
  const lines = order.money.lines.filter((l) => l.currency !== null && !l.test);
  const refundable = lines.find((l) => l.due > 0) ?? lines.find((l) => l.net > 0);
  if (!refundable?.currency) return null;
  const asked = typed?.intent === "mark-refunded" ? typed.amount : "";
  const start = asked || majorUnits(refundable.due || refundable.net, refundable.currency);
  return (
    <Disclosure
      place={place}
      intent="mark-refunded"
      summary={CONSOLE_COPY.refundByHand}
      open={asked !== ""}
      className="w-auto open:w-full"
      testId="refund-by-hand"
    >
      <RefundForm key={start} order={order} currency={refundable.currency} start={start} action={action} />
    </Disclosure>
  );
}

function RefundForm({ order, currency, start, action }: { order: QueuedOrder; currency: string; start: string; action: Shared }) {
  // Without JavaScript the button names the amount it was drawn with; the server asks again if another was typed.
  const [text, setText] = useState(start);
  const amount = parseAmount(text, currency);
  return (
    <Action
      {...action}
      intent="mark-refunded"
      label={amount ? CONSOLE_COPY.refundButton(formatMoney(amount, currency)!) : CONSOLE_COPY.refundNoAmount}
      pending={CONSOLE_COPY.refunding}
      fields={{ token: order.markToken, currency, named: amount ? String(amount) : "" }}
      grow
    >
      <AmountField code={order.code} intent="mark-refunded" currency={currency} value={start} onInput={setText} />
    </Action>
  );
}
