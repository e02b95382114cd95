/**
 * Record shapes the tau2 airline and retail databases share.
 *
 * @module
 */

/** A payment method of a customer profile; `Source` names the kinds a domain has. */
export type Tau2PaymentMethod<Source extends string> = {
  source: Source;
  id: string;
  brand?: string;
  last_four?: string;
};

/** The fields every tau2 customer profile has. */
export type Tau2UserProfile<PaymentMethod> = {
  user_id: string;
  name: { first_name: string; last_name: string };
  email: string;
  payment_methods: Record<string, PaymentMethod>;
};
