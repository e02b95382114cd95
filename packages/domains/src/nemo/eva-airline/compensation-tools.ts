/**
 * The eva airline tools that compensate or hand over: `ProcessRefundTool`,
 * `IssueTravelCreditTool`, `IssueHotelVoucherTool`, `IssueMealVoucherTool`,
 * `TransferToAgentTool`. Dates come from the db's `_current_date`, never the clock.
 *
 * NeMo's code collisions are kept: every passenger of a reservation gets the same travel-credit
 * code (`TC<CN>PAX`) and `PAX001`/`PAX002` the same meal-voucher code (`MEAL-<CN>-PAX0`), so a
 * second one overwrites the first; there is one hotel voucher per reservation.
 *
 * @module
 */
import { pyFloatStr, pyIntFromString } from '@scenaro/agent/python';
import { evaTool, num, onReservation, str } from './params.js';
import { KINDS, PARAMS, confirmationNumberParam, oneOf } from './fields.js';
import { dictOf, evaError, nextCallIndex, required } from './store.js';

const pad3 = (n: number): string => String(n).padStart(3, '0');

export const processRefundTool = evaTool({
  name: 'ProcessRefundTool',
  description:
    'Process a refund for a cancelled or eligible reservation. Called after cancel_reservation when refund is due. Call once per refund type — fare and ancillary fees must be separate calls. Never combine both into a single call.',
  kind: 'write',
  params: [
    PARAMS.confirmationNumber,
    [
      'refund_amount',
      { type: 'float', gt: 0 },
      'Amount to refund (use refund_amount_eligible from cancel_reservation).',
    ],
    oneOf('refund_type', KINDS.refundType),
  ],
  run: onReservation(({ cn, values, db, context }) => {
    const amount = num(values, 'refund_amount');
    const refundType = str(values, 'refund_type');
    const refundId = `REF-${cn}-${pad3(nextCallIndex(context, 'process_refund'))}`;
    dictOf(db, 'refunds')[refundId] = {
      refund_id: refundId,
      confirmation_number: cn,
      refund_amount: amount,
      refund_type: refundType,
      processing_days: 7,
      initiated_date: required(db, '_current_date'),
      status: 'processing',
    };
    context.recordAction?.({
      action_type: 'process_refund',
      confirmation_number: cn,
      refund_amount: amount,
      refund_type: refundType,
    });
    return {
      status: 'success',
      confirmation_number: cn,
      refund_id: refundId,
      refund_amount: amount,
      refund_type: refundType,
      processing_days: 7,
      // The amount is a Python float: 260 prints as 260.0.
      message: `$${pyFloatStr(amount)} refund initiated, processing time 7 business days`,
    };
  }),
});

export const issueTravelCreditTool = evaTool({
  name: 'IssueTravelCreditTool',
  description:
    'Issue a travel credit or future flight voucher. Used for non-refundable cancellations, fare-difference negatives, downgrades, or service recovery.',
  kind: 'write',
  params: [
    PARAMS.confirmationNumber,
    PARAMS.passengerId,
    ['amount', { type: 'float', gt: 0 }, 'Credit amount in USD.'],
    oneOf('credit_reason', KINDS.creditReason),
  ],
  run: onReservation(({ cn, values, db, context }) => {
    const passengerId = str(values, 'passenger_id');
    const amount = num(values, 'amount');
    const reason = str(values, 'credit_reason');
    const code = `TC${cn}${passengerId.slice(0, 3).toUpperCase()}`;
    const today = required<string>(db, '_current_date');
    dictOf(db, 'travel_credits')[code] = {
      credit_code: code,
      confirmation_number: cn,
      passenger_id: passengerId,
      amount,
      credit_reason: reason,
      issued_date: today,
      expiry_date: `${pyIntFromString(today.slice(0, 4)) + 1}${today.slice(4)}`,
      status: 'active',
    };
    context.recordAction?.({
      action_type: 'issue_travel_credit',
      confirmation_number: cn,
      passenger_id: passengerId,
      amount,
      credit_reason: reason,
    });
    return {
      status: 'success',
      confirmation_number: cn,
      passenger_id: passengerId,
      credit_code: code,
      amount,
      valid_months: 12,
      message: `$${pyFloatStr(amount)} travel credit issued with code ${code}`,
    };
  }),
});

export const issueHotelVoucherTool = evaTool({
  name: 'IssueHotelVoucherTool',
  description:
    'Issue a hotel voucher. Use for overnight IRROPS situations after rebooking is confirmed (not before). Maximum 3 nights.',
  kind: 'write',
  params: [
    PARAMS.confirmationNumber,
    PARAMS.passengerId,
    ['num_nights', { type: 'int', ge: 1 }, 'Number of nights (1-3).'],
  ],
  run: onReservation(({ cn, values, db, context }) => {
    const passengerId = str(values, 'passenger_id');
    const nights = num(values, 'num_nights');
    if (nights > 3) {
      return evaError('exceeds_authority', 'Hotel vouchers can be issued for maximum of 3 nights');
    }
    const code = `HOTEL-${cn}`;
    dictOf(db, 'hotel_vouchers')[code] = {
      voucher_code: code,
      confirmation_number: cn,
      passenger_id: passengerId,
      num_nights: nights,
      issued_date: required(db, '_current_date'),
      status: 'active',
    };
    context.recordAction?.({
      action_type: 'issue_hotel_voucher',
      confirmation_number: cn,
      passenger_id: passengerId,
      num_nights: nights,
    });
    return {
      status: 'success',
      confirmation_number: cn,
      passenger_id: passengerId,
      voucher_code: code,
      number_of_nights: nights,
      valid_at: 'Any hotels in airport area',
      message: `Hotel voucher issued with code ${code} for ${nights} nights`,
    };
  }),
});

const MEAL_VOUCHER_AMOUNTS: Readonly<Record<string, number>> = {
  delay_over_2_hours: 12,
  delay_over_4_hours: 15,
  cancellation_wait_same_day: 15,
  irrops_overnight: 25,
};

export const issueMealVoucherTool = evaTool({
  name: 'IssueMealVoucherTool',
  description:
    'Issue a meal voucher. Amount is computed from voucher_reason: delay_over_2_hours=$12, delay_over_4_hours=$15, cancellation_wait_same_day=$15, irrops_overnight=$25.',
  kind: 'write',
  params: [
    PARAMS.confirmationNumber,
    PARAMS.passengerId,
    oneOf('voucher_reason', KINDS.voucherReason),
  ],
  run: onReservation(({ cn, values, db, context }) => {
    const passengerId = str(values, 'passenger_id');
    const reason = str(values, 'voucher_reason');
    const amount = MEAL_VOUCHER_AMOUNTS[reason] ?? 12;
    const code = `MEAL-${cn}-${passengerId.slice(0, 4).toUpperCase()}`;
    dictOf(db, 'meal_vouchers')[code] = {
      voucher_code: code,
      confirmation_number: cn,
      passenger_id: passengerId,
      amount,
      voucher_reason: reason,
      issued_date: required(db, '_current_date'),
      status: 'active',
    };
    context.recordAction?.({
      action_type: 'issue_meal_voucher',
      confirmation_number: cn,
      passenger_id: passengerId,
      voucher_reason: reason,
      amount,
    });
    return {
      status: 'success',
      confirmation_number: cn,
      passenger_id: passengerId,
      voucher_code: code,
      amount,
      valid_at: 'Airport terminal restaurants',
      message: `$${amount} meal voucher issued with code ${code}`,
    };
  }),
});

export const transferToAgentTool = evaTool({
  name: 'TransferToAgentTool',
  description:
    'Transfer the call to a live human agent. Use when the caller explicitly requests an agent, when a policy exception is needed, when stuck after two attempts, or for technical issues.',
  kind: 'write',
  params: [
    confirmationNumberParam('Booking confirmation code for context transfer.'),
    [
      'transfer_reason',
      KINDS.text,
      'Reason for transfer (passenger_requested, policy_exception_needed, complex_itinerary, complaint_escalation, technical_issue, unable_to_resolve).',
    ],
    ['issue_summary', KINDS.text, 'Brief summary of the issue and what has been attempted.'],
  ],
  run: onReservation(({ cn, values, context }) => {
    const reason = str(values, 'transfer_reason');
    const summary = str(values, 'issue_summary');
    const transferId = `TRF-${cn}-${pad3(nextCallIndex(context, 'transfer_to_agent'))}`;
    context.recordAction?.({
      action_type: 'transfer_to_agent',
      confirmation_number: cn,
      transfer_reason: reason,
      issue_summary: summary,
    });
    // Only a successful transfer ends the call, once its result is delivered.
    context.endConversation?.('Transfer complete.');
    return {
      status: 'success',
      transfer_id: transferId,
      confirmation_number: cn,
      transfer_reason: reason,
      issue_summary: summary,
      estimated_wait: '2-3 minutes',
      message: 'Transferring to live agent',
    };
  }),
});
