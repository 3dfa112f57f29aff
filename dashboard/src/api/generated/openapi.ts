// Generated from the API's OpenAPI document (GET /openapi.json, built from the zod schemas) by openapi-typescript.
// Do not edit: change the API's schemas, then run `npm run api:generate`. test/dashboard/api-types.unit.test.ts
// fails while this file differs from a fresh generation.

export interface paths {
    "/v1/subscription-plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List plans
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `plans_read`.
         */
        get: operations["listSubscriptionPlans"];
        put?: never;
        /**
         * Create a plan
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `plans_write`.
         */
        post: operations["createSubscriptionPlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscription-plans/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a plan
         * @description Publishable keys allowed (browser use, CORS: see PUT /v1/merchants/me/allowed-origins). Required scope: `plans_read`.
         */
        get: operations["getSubscriptionPlan"];
        put?: never;
        /**
         * Update a plan
         * @description Only `name` and `trialEndBehavior` may change: the amount, interval and trial are the terms each subscriber's wallet signed on chain, so a new price is a new plan; the trial end behaviour is the merchant's policy, read when a trial's first charge is refused (running trials included). An archived plan cannot change (`session_invalid_state`). Emits `subscription_plan.updated` when either changes.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `plans_write`.
         */
        post: operations["updatePlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscription-plans/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a plan
         * @description The plan takes no new enrolments (hosted enrolment and storefront purchases are refused with `session_invalid_state`); subscriptions already on it keep running and charging on their signed terms. Archiving an archived plan is `session_invalid_state`. Emits `subscription_plan.archived`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `plans_write`.
         */
        post: operations["archivePlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/checkout/plans/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A plan for the hosted enrolment page
         * @description Public: no credentials.
         */
        get: operations["getCheckoutPlan"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/coupons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List coupons
         * @description Coupons not deleted, newest first; `metadata[key]=value` keeps those whose metadata holds every pair given.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `plans_read`.
         */
        get: operations["listCoupons"];
        put?: never;
        /**
         * Create a coupon
         * @description A percent (`percentOff`) or an amount (`amountOff`) off each discounted charge, for `once`, `repeating` (`durationInPeriods` charged periods) or `forever`. Apply it to a subscription with `POST /v1/subscriptions/{id}/discount`, or give customers a promotion code on it. Emits `coupon.created`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `plans_write`.
         */
        post: operations["createCoupon"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/coupons/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a coupon
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `plans_read`.
         */
        get: operations["getCoupon"];
        put?: never;
        /**
         * Update a coupon
         * @description Only `name` and `metadata` may change: the terms are what the discounts already applied were given. Emits `coupon.updated` when something changed.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `plans_write`.
         */
        post: operations["updateCoupon"];
        /**
         * Delete a coupon
         * @description The coupon can no longer be applied, nor its promotion codes redeemed, and it is `not_found` from then on; discounts already applied on it keep running to their end. Emits `coupon.deleted`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `plans_write`.
         */
        delete: operations["deleteCoupon"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/meters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List billing meters
         * @description Active and inactive meters, newest first (`status` to keep one).
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `plans_read`.
         */
        get: operations["listBillingMeters"];
        put?: never;
        /**
         * Create a billing meter
         * @description What usage is counted: events named `eventName`, aggregated by `aggregation` over the payload value under `valueKey`, per customer named by `customerMapping`. The event name must not be taken by another active meter of the merchant and mode (`invalid_request`, param `eventName`).
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `plans_write`.
         */
        post: operations["createBillingMeter"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/meters/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a billing meter
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `plans_read`.
         */
        get: operations["getBillingMeter"];
        put?: never;
        /**
         * Update a billing meter
         * @description Only `displayName` may change: the rest decides how the events already stored are counted.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `plans_write`.
         */
        post: operations["updateBillingMeter"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/meters/{id}/deactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deactivate a billing meter
         * @description Events for its event name are refused from now on and the name is free for another meter; the events stored keep counting in its summaries. Deactivating an inactive meter changes nothing.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `plans_write`.
         */
        post: operations["deactivateBillingMeter"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/meters/{id}/reactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reactivate a billing meter
         * @description Takes events again; refused (`invalid_request`, param `eventName`) while another active meter has its event name.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `plans_write`.
         */
        post: operations["reactivateBillingMeter"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/meters/{id}/event-summaries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Summarise a customer's usage of a meter
         * @description The meter's aggregation of the customer's uncancelled events in [startTime, endTime): one summary for the range, or one per UTC hour or day that has events (`valueGroupingWindow`), oldest first, all on one page.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_read`.
         */
        get: operations["listBillingMeterEventSummaries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/meter-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report a usage event
         * @description Stored once per `identifier` (merchant and mode): a duplicate answers `duplicate: true` and counts nothing. Refused with `invalid_request` and its `param` for an event name no active meter takes (`eventName`), a timestamp over 35 days old or over 5 minutes ahead (`timestamp`), a missing or unknown customer (`payload.<key>`) or a missing or malformed value (`payload.<valueKey>`).
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_write`.
         */
        post: operations["createBillingMeterEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/meter-events/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report up to 100 usage events
         * @description A body of the wrong shape is refused whole (param `events.N.field`). Otherwise each event has its own result: `accepted`, `duplicate` (its identifier was accepted before, or earlier in this batch) or `refused` with the error the single endpoint would give; the accepted ones are stored in one statement.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_write`.
         */
        post: operations["createBillingMeterEventBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/meter-events/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a usage event
         * @description Within 24 hours of its acceptance the event stops counting in every summary; later, `invalid_request` (param `identifier`). An unknown identifier is `not_found`; cancelling again answers the first cancellation.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_write`.
         */
        post: operations["cancelBillingMeterEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/promotion-codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List promotion codes
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `plans_read`.
         */
        get: operations["listPromotionCodes"];
        put?: never;
        /**
         * Create a promotion code
         * @description A customer-facing code on a coupon: the hosted enrolment page takes it, and `POST /v1/subscriptions/{id}/discount` with `promotionCode`. A code already in use (any letter case) is `invalid_request` with param `code`. Emits `promotion_code.created`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `plans_write`.
         */
        post: operations["createPromotionCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/promotion-codes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a promotion code
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `plans_read`.
         */
        get: operations["getPromotionCode"];
        put?: never;
        /**
         * Update a promotion code
         * @description Only `active` and `metadata` may change. Emits `promotion_code.updated` when something changed.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `plans_write`.
         */
        post: operations["updatePromotionCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}/discount": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply a coupon or promotion code to a subscription
         * @description From the next charge on, each charge pulls the discounted amount (never more than the amount the customer authorised on chain, so no new signature is needed) until the coupon's duration is used up. Replaces an open discount. Refused with `invalid_request` (param `coupon` or `promotionCode`) when the coupon or code cannot be redeemed: unknown, deleted, inactive, expired, past `redeemBy`, at its maximum redemptions, not for the subscription's plan, first-time customers only, or an amount off that leaves nothing to charge; a cancelled, lapsed or completed subscription is `session_invalid_state`. Emits `customer.discount.created` (and `customer.discount.deleted` for a replaced one).
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_write`.
         */
        post: operations["applySubscriptionDiscount"];
        /**
         * Remove a subscription's discount
         * @description The next charge pulls the full amount again (a period already attempted keeps the amount of its first attempt). No discount to remove is `session_invalid_state`. Emits `customer.discount.deleted`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_write`.
         */
        delete: operations["removeSubscriptionDiscount"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}/change-plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change a subscription's plan
         * @description Moves a `trialing` or `active` subscription to another plan of the same merchant and mode with the same interval (docs/decisions.md "Plan changes with proration"). In a trial, any change applies at once. An upgrade whose amount is within what the customer authorised on chain (`amount`) applies at once; with `create_prorations` the next period’s charge adds floor((new - old) * remainingSeconds / periodSeconds) for the rest of the period in progress, limited so that charge stays within `amount`. A cheaper or equal plan is `scheduled` for the start of the next period (`pendingPlanChange`). An amount above `amount` is `requires_customer_action`: nothing changes or is charged until the subscribing wallet signs a new enrolment for it on the hosted page at `pendingPlanChange.hostedUrl`; it then applies from the next period (nothing prorated) and the old enrolment is cancelled on chain. The current `planId` cancels a waiting change; a new change replaces it. Refused with `invalid_request` (param `planId`): unknown or another merchant’s or mode’s plan, archived, another interval or currency, not offered on the subscription’s chain, the current plan with no change waiting; (param `prorationBehavior`): `always_invoice`. Any other status, or a downgrade in the last authorised period, is `session_invalid_state`. Emits `subscription.updated`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_write`.
         */
        post: operations["changeSubscriptionPlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create the merchant of a dashboard user (idempotent)
         * @description Call after a request answered `merchant_not_synced`. Creates the merchant for the token's user (`sub`), taking email and name from the token's claims; a second call returns the same merchant.
         *
         *     Dashboard session only; works before the merchant exists.
         */
        post: operations["syncMerchant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The merchant
         * @description The merchant of the dashboard session, or the merchant the secret key belongs to.
         *
         *     Dashboard session, or any secret API key of the merchant (no scope needed). Not publishable keys.
         */
        get: operations["getMerchant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants/me/live-mode-eligibility": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live-mode eligibility with a reason per unmet check
         * @description Dashboard session, or any secret API key of the merchant (no scope needed). Not publishable keys.
         */
        get: operations["getLiveModeEligibility"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants/me/email-verification": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Email a verification code to the owner
         * @description Dashboard session only.
         */
        post: operations["startEmailVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants/me/email-verification/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm the emailed code
         * @description Dashboard session only.
         */
        post: operations["confirmEmailVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants/me/two-factor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start TOTP enrolment
         * @description Returns a new secret and otpauth URI; two-factor is enabled once confirmed with a valid code.
         *
         *     Dashboard session only.
         */
        post: operations["startTwoFactorEnrolment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants/me/two-factor/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm TOTP enrolment with a current code
         * @description Dashboard session only.
         */
        post: operations["confirmTwoFactorEnrolment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants/me/api-version": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Pin the API version
         * @description The dated version used for this merchant's requests that send no `Service-Version` header (spec: the version is chosen by the header or pinned in the dashboard). API keys pick up a new pin within 30 seconds.
         *
         *     Dashboard session only.
         */
        put: operations["pinApiVersion"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants/me/allowed-origins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set the origins allowed to use publishable keys
         * @description Web pages on these origins may call the API with this merchant's publishable keys (CORS). A publishable-key request from any other origin is refused with `permission_denied`. `["*"]` allows every origin. Keys pick up a change within 30 seconds.
         *
         *     Dashboard session only.
         */
        put: operations["setAllowedOrigins"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants/me/business-profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Submit the business onboarding form
         * @description Self-attested: business name, sector, country (ISO 3166-1 alpha-2) and payout address (EVM).
         *
         *     Dashboard session only.
         */
        put: operations["submitBusinessProfile"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants/me/accepted-chains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The chains new payment sessions accept by default
         * @description For the request's mode: the account's default of the chains a payment session accepts when its request names none, and every chain configured for the mode.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `payment_sessions_read`.
         */
        get: operations["getAcceptedChains"];
        /**
         * Set the chains new payment sessions accept by default
         * @description Replaces the request's mode's setting (the other mode's is untouched). Every chain must be one of the mode's configured chains, else `invalid_request` naming it (`param: acceptedChainIds.<i>`). `null` accepts every chain of the mode. Sessions created before keep their chains; a session's own `acceptedChainIds` must be among these.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `payment_sessions_write`.
         */
        put: operations["setAcceptedChains"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants/me/payout-addresses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The payout address on each chain of the mode
         * @description For the request's mode: every configured chain with the address the merchant is paid at there (the address set for the chain, else the account's payout address).
         *
         *     Dashboard session, or any secret API key of the merchant (no scope needed). Not publishable keys.
         */
        get: operations["listChainPayouts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants/me/payout-addresses/{chainId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set or clear the payout address of one chain
         * @description Sets the address that receives the merchant's payments on one configured chain of the request's mode (relayed checkout payments, deposit sweeps, x402, subscription terms and the refund allowance there). `null` returns the chain to the account's payout address. A chain the mode lacks is `invalid_request` (`param: chainId`); an address that is not valid EIP-55, or is another merchant's, a platform contract or deposit address, or blacklisted by USDC on that chain, is `invalid_request` (`param: payoutAddress`). Payment sessions created before keep the addresses they were created with. Dashboard only.
         *
         *     Dashboard session only.
         */
        put: operations["setChainPayout"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants/me/receipt-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Which receipts are emailed to customers
         * @description For the request's mode: a switch per kind (payment, subscription charge, refund, paid invoice). A receipt goes only to an email the merchant or the customer gave for this merchant and mode (the invoice's customer email, the subscription's customer, the paying wallet's customer); docs/receipts.md.
         *
         *     Dashboard session, or any secret API key of the merchant (no scope needed). Not publishable keys.
         */
        get: operations["getReceiptSettings"];
        /**
         * Turn receipt emails on or off per kind
         * @description Changes the named switches of the request's mode (the other mode's are untouched); switches not named keep their value. A body naming none, an unknown field or a value that is not a boolean is `invalid_request`. Money events processed after the change follow it; a receipt already queued is sent.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `payment_sessions_write`.
         */
        put: operations["setReceiptSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys (never their secrets)
         * @description Dashboard session only.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Issue an API key
         * @description The secret is returned only in this response. Live keys need live-mode eligibility.
         *
         *     Dashboard session only.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the key audit log (issue, revoke, reveal)
         * @description Dashboard session only.
         */
        get: operations["listApiKeysAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an API key
         * @description The key returns authentication_error from then on. Keys are never deleted. Rotation = revoke + issue.
         *
         *     Dashboard session only.
         */
        post: operations["revokeApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{id}/reveal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reveal the secret of a key issued to replace a leaked one (once)
         * @description When a leaked secret key is rotated automatically, its replacement secret is kept encrypted until the merchant reveals it here, once. It is never emailed. A second call is session_invalid_state.
         *
         *     Dashboard session only.
         */
        post: operations["revealApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `webhooks_read`.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Register a webhook endpoint
         * @description Returns the endpoint and its signing secret; the secret is shown only here and on rotation.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `webhooks_write`.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a webhook endpoint
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `webhooks_read`.
         */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Disable a webhook endpoint
         * @description A disabled endpoint receives nothing; its pending retries stop before their next attempt.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `webhooks_write`.
         */
        post: operations["disableWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable a webhook endpoint
         * @description Delivery resumes for events recorded from now on; events missed while disabled are not sent (replay them from their delivery records).
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `webhooks_write`.
         */
        post: operations["enableWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret
         * @description Returns the new secret once. The previous secret keeps signing beside it (two signatures in webhook-signature) for 24 hours.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `webhooks_write`.
         */
        post: operations["rotateWebhookEndpointSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description Records a test event (`webhook_endpoint.test` unless `type` names another kind) and delivers it to this endpoint only (never to other endpoints, whatever they subscribe to), through the usual delivery: signed, retried on the usual schedule, one delivery record per attempt. Waits up to 15 seconds for the first attempt and returns it. A disabled endpoint is refused with `session_invalid_state`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `webhooks_write`.
         */
        post: operations["testWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-deliveries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a delivery record
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `webhooks_read`.
         */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List delivery records
         * @description One record per attempt, newest first.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `webhooks_read`.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-deliveries/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay a delivery
         * @description Starts a new attempt sequence for the same event and endpoint, with the same webhook-id.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `webhooks_write`.
         */
        post: operations["replayWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-listeners": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a webhook listener (test mode only)
         * @description Creates a temporary test-mode endpoint of kind `listener` for `npm run listen` and returns its signing secret once. Deliveries to it go through the usual workflow and are handed to whoever holds its stream; the service never opens a connection to the developer's machine. It expires one hour after its last stream closed. A live-mode key is refused with `permission_denied`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `webhooks_write`.
         */
        post: operations["createWebhookListener"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-listeners/{id}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Receive a listener's deliveries (Server-Sent Events)
         * @description A long-lived text/event-stream. Each `delivery` event carries the signed request to forward; answer it with POST /v1/webhook-listeners/{id}/answers. An attempt nobody answers within 10 seconds (or made while no stream is open) fails and is retried on the usual schedule.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `webhooks_write`.
         */
        get: operations["streamWebhookListener"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-listeners/{id}/answers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report the local response to a delivery
         * @description The CLI's report of what the local receiver answered; recorded on the delivery attempt like a real response.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `webhooks_write`.
         */
        post: operations["answerWebhookListenerRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List events
         * @description Every event the merchant's objects produced in this mode, newest first, each exactly as its webhooks carry it plus `objectId`. Filters combine: `type`, `objectId` (events about that object or naming it as related), and `createdFrom` (inclusive) / `createdTo` (exclusive).
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `webhooks_read`.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve an event with its delivery attempts
         * @description The event, plus every attempt to deliver it to any endpoint, with the request body sent and the start of the response.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `webhooks_read`.
         */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List customers
         * @description Newest first. A customer is a wallet that enrolled in one of the merchant's plans or paid one of its payment sessions (docs/decisions.md, One-off payers as customers), with its subscription, charge and payment counts.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_read`.
         */
        get: operations["listCustomers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/customers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a customer
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_read`.
         */
        get: operations["getCustomer"];
        put?: never;
        /**
         * Update a customer
         * @description Only `metadata` may change (merged; a key sent as "" is removed): the wallet is who the customer is, and the email is the one they left at checkout.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_write`.
         */
        post: operations["createCustomer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tokens/{address}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Token metadata, EIP-712 domain and capabilities
         * @description Public. Reads the test mode's chain unless `mode=live`; `chainId` picks another of the mode's chains. Results are cached for a few minutes.
         *
         *     Public: no credentials.
         */
        get: operations["getTokenByAddress"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tokens/{address}/permit-nonce": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A wallet's current EIP-2612 permit nonce
         * @description Public. The `nonce` field is the value to sign the next permit with. Reads the test chain unless `mode=live`.
         *
         *     Public: no credentials.
         */
        get: operations["getTokenPermitNonce"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/relay/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Relay a payer-signed EIP-3009 authorization
         * @description Requires `Idempotency-Key`: it names the submission. Before anything is sent the relay checks that the signature recovers `from`, the time window is open, the nonce is unused on-chain, the balance covers the value and the recipient is the merchant's payout address; each refusal is `invalid_request` with the offending `param`. The same authorization is never submitted twice, under any key.
         *
         *     Secret API key only. Required scope: `relay_write`.
         */
        post: operations["createRelayPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/relay/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Relay an EIP-2612 permit plus a subscription enrolment
         * @description Requires `Idempotency-Key`. Submits SubscriptionManager.subscribeWithPermitFor from the relayer account, on the chain `chainId` names (default: the mode's first; a chain the mode lacks is `invalid_request` with `param: chainId`), after checking both signatures against that chain's domains, deadlines, the enrolment nonce, the operator and that `terms.merchant` is the merchant's payout address. Terms that are a plan's of the merchant (amount, period and charge window) offered only on other chains are `invalid_request` with `param: chainId` (the message names the plans and their chains): the platform records an enrolment only for a plan offered on its chain.
         *
         *     Secret API key only. Required scope: `relay_write`.
         */
        post: operations["createRelaySubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/relay/submissions/{idempotencyKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * On-chain status of a relay submission
         * @description Secret API key only. Required scope: `relay_read`.
         */
        get: operations["getRelaySubmissionByIdempotencyKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/x402/supported": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * x402: what this facilitator settles in the key's mode
         * @description x402 version 2, scheme `exact` on EVM (EIP-3009 transferWithAuthorization of the mode's USDC, to the merchant's payout address or the deposit address of one of its open payment sessions in the mode). The mode is the key's: a test key settles on the test chain, a live key on the live one. A well-formed x402 request is always answered 200 in x402's shape; a body that is not one is `invalid_request`. Lists `exact` on `eip155:<chainId>` when the mode has a chain and a relayer, nothing otherwise.
         *
         *     Secret API key only. Required scope: `relay_read`.
         */
        get: operations["getX402Supported"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/x402/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * x402: verify a payment without settling it
         * @description x402 version 2, scheme `exact` on EVM (EIP-3009 transferWithAuthorization of the mode's USDC, to the merchant's payout address or the deposit address of one of its open payment sessions in the mode). The mode is the key's: a test key settles on the test chain, a live key on the live one. A well-formed x402 request is always answered 200 in x402's shape; a body that is not one is `invalid_request`. Checks the signature (ECDSA, or ERC-1271 through a simulation), the recipient, the time window against chain time, the amount, the nonce, the balance, and simulates the transfer at the next block's time (blacklist, pause).
         *
         *     Secret API key only. Required scope: `relay_write`.
         */
        post: operations["verifyX402Payment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/x402/settle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * x402: settle a payment on chain, exactly once
         * @description x402 version 2, scheme `exact` on EVM (EIP-3009 transferWithAuthorization of the mode's USDC, to the merchant's payout address or the deposit address of one of its open payment sessions in the mode). The mode is the key's: a test key settles on the test chain, a live key on the live one. A well-formed x402 request is always answered 200 in x402's shape; a body that is not one is `invalid_request`. Verifies, then records a payment session and a relay submission of the authorization and answers once the transfer is included. The same authorization settled again, or concurrently, answers with the same transaction; funds move once. If inclusion takes longer than the wait, the answer is `settlement_pending` with the transaction: settle again to read the outcome.
         *
         *     Secret API key only. Required scope: `relay_write`.
         */
        post: operations["settleX402Payment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/{id}/pay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pay a payment session with the customer's signed EIP-3009 authorization (used by the hosted checkout page)
         * @description Public and same-origin: the hosted checkout page posts the authorization the customer's wallet signed. The server relays it for the session's merchant and mode (as POST /v1/relay/payments with paymentSessionId), so no key ever reaches the browser. The relay Idempotency-Key is `checkout_<sessionId>_<nonce>`: posting the same authorization again returns the same submission. Refusals are the relay's (invalid_request with the offending param, session_invalid_state when the session is not open).
         *
         *     Public: no credentials.
         */
        post: operations["payCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/{id}/customer-email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Leave an email on a payment session (used by the hosted checkout page)
         * @description Public and same-origin, like the page: the optional email field of the hosted payment page, for a payment by wallet or by transfer. Accepted while the session is open or processing (else `session_invalid_state`); the last one given is kept. It is a label, never verified: when the session completes, the paying wallet's customer (found or created by wallet) takes it only if it has no email yet.
         *
         *     Public: no credentials.
         */
        post: operations["customerCheckoutEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/{id}/payments/{nonce}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Status of a payment submitted from the hosted checkout page
         * @description Public, like the page. The relay submission of the authorization with this nonce for this session (posted to POST /checkout/{id}/pay): when it failed, `failureCode` names the token's refusal (e.g. `token_paused`, `payer_blacklisted`) so that the page can tell the payer why and what to do next. 404 when no authorization with this nonce was posted for the session.
         *
         *     Public: no credentials.
         */
        get: operations["getCheckoutPaymentByNonce"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/plans/{planId}/enrolment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the hosted enrolment page asks the subscriber to sign for a plan
         * @description Public. The Enrolment terms (the plan's amount and on-chain period, the merchant's payout address, the service's operator), the SubscriptionManager and its EIP-712 domain, and the permit allowance to ask for, on the chain `chainId` names (one of the plan's; default its first). `chains` lists every chain the plan is offered on. A chain the plan is not offered on is `invalid_request` with `param: chainId`. With `promotionCode`, `discount` previews the code on this plan (refused as at enrolment, param `promotionCode`). With `wallet`, a test-mode wallet attached to a test clock with a chain of its own is offered that chain only (the page asks again once the wallet is connected); the enrolment of such a wallet is sent there.
         *
         *     Public: no credentials.
         */
        get: operations["getCheckoutPlanEnrolment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/plans/{planId}/enrol": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enrol in a plan with the subscriber's signed permit and Enrolment (used by the hosted enrolment page)
         * @description Public and same-origin. `chainId` is the chain the subscriber chose (one the plan is offered on; default its first); the terms must be the plan's there (as GET /checkout/plans/{planId}/enrolment?chainId= offers them; trialEnd no later than offered), and the permit and enrolment signed for that chain; the server relays the permit and enrolment for the plan's merchant and mode (as POST /v1/relay/subscriptions) under the Idempotency-Key `checkout_<planId>_<enrolment nonce>`. The optional `customerEmail` is kept on the wallet's customer once the relay accepted the signatures; it is where the renewal email goes.
         *
         *     Public: no credentials.
         */
        post: operations["enrolCheckoutPlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/plans/{planId}/enrolments/{nonce}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * On-chain status of an enrolment submitted from the hosted page
         * @description Public: no credentials.
         */
        get: operations["getCheckoutPlanEnrolmentByNonce"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/plan-changes/{id}/reauthorisation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the hosted approval page asks the subscribing wallet to sign for an upgrade above the authorised amount
         * @description Public; the `token` of the plan change's `hostedUrl` is the capability (an unknown change and a wrong token are the same 404). A new enrolment for the new plan's amount on the subscription's chain, whose period 0 is the subscription's next period (`firstChargeAt`, signed as `terms.trialEnd`; at least an hour ahead, else the one after), for the periods left of the term. Once it is on chain the subscription charges through it from that period and the old enrolment is cancelled on chain. A change no longer waiting, or a subscription not trialing or active, is `session_invalid_state`.
         *
         *     Public: no credentials.
         */
        get: operations["getCheckoutPlanChangeReauthorisation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/plan-changes/{id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Where an approved upgrade above the authorised amount stands (used by the hosted approval page)
         * @description Public; the link's `token` is the capability (an unknown change and a wrong token are the same 404). `status` is `pending` until a signature is relayed, `submitted` while the relayed enrolment waits to be indexed, then `applied`; `cancelled` once the change was withdrawn. A signature that reached a subscription unable to take it (at risk, or its next period already charged) is cancelled on chain and the change is `pending` again.
         *
         *     Public: no credentials.
         */
        get: operations["getCheckoutPlanChangeStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/plan-changes/{id}/reauthorise": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve an upgrade above the authorised amount with the subscriber's signed permit and Enrolment (used by the hosted approval page)
         * @description Public and same-origin; the body carries the link's `token`. Only the subscribing wallet (`subscriber`, else `invalid_request`), over exactly the offered terms (`terms`). The server binds the enrolment to the subscription (its start and amount), then relays it as POST /v1/relay/subscriptions under the Idempotency-Key `checkout_<planChangeId>_<enrolment nonce>`; the change is applied when the enrolment is indexed. Refusals are those of GET .../reauthorisation and the relay's.
         *
         *     Public: no credentials.
         */
        post: operations["reauthoriseCheckoutPlanChange"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/wallet-changes/{id}/reauthorisation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the hosted approval page asks the new wallet to sign to move a subscription to it
         * @description Public; the `token` of the wallet change's `hostedUrl` (given to the customer in the portal) is the capability (an unknown change and a wrong token are the same 404). A new enrolment by the wallet the customer named (`subscriber`) for the subscription's plan and current authorised amount, on its chain, whose period 0 is the subscription's next period (`firstChargeAt`), for the periods left of the term. Once it is on chain the subscription charges that wallet from that period and the old enrolment is cancelled on chain. A change no longer waiting, or a subscription not trialing or active, is `session_invalid_state`.
         *
         *     Public: no credentials.
         */
        get: operations["getCheckoutWalletChangeReauthorisation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/wallet-changes/{id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Where an approved move to another wallet stands (used by the hosted approval page)
         * @description Public; the link's `token` is the capability (an unknown change and a wrong token are the same 404). `status` is `pending` until a signature is relayed, `submitted` while the relayed enrolment waits to be indexed, then `applied`; `cancelled` once the change was withdrawn. A signature that reached a subscription unable to take it (at risk, or its next period already charged) is cancelled on chain and the change is `pending` again.
         *
         *     Public: no credentials.
         */
        get: operations["getCheckoutWalletChangeStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/wallet-changes/{id}/reauthorise": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move a subscription to another wallet with that wallet's signed permit and Enrolment (used by the hosted approval page)
         * @description Public and same-origin; the body carries the link's `token`. Only the wallet named when the change was started (`subscriber`, else `invalid_request`), over exactly the offered terms (`terms`). The server binds the enrolment to the subscription (its start and amount), then relays it as POST /v1/relay/subscriptions under the Idempotency-Key `checkout_<walletChangeId>_<enrolment nonce>`; the subscription moves when the enrolment is indexed. Refusals are those of GET .../reauthorisation and the relay's.
         *
         *     Public: no credentials.
         */
        post: operations["reauthoriseCheckoutWalletChange"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/subscriptions/{id}/renewal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the hosted renewal page asks the subscriber to sign
         * @description Public; the `token` of the emailed renewal link is the capability (an unknown subscription and a wrong token are the same 404). The token's EIP-712 domain, the subscriber, the SubscriptionManager (spender), the current allowance and permit nonce, and the allowance to permit: the current one plus 12 periods.
         *
         *     Public: no credentials.
         */
        get: operations["getCheckoutSubscriptionRenewal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/subscriptions/{id}/renew": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Renew a subscription's allowance with the subscriber's signed EIP-2612 permit (used by the hosted renewal page)
         * @description Public and same-origin; the body carries the renewal link's `token`. The permit must be signed by the subscriber for the SubscriptionManager at the current permit nonce, unexpired, cover one period and raise the allowance. The operator submits it (workflow `<subscription id>_renew_<permit nonce>`: a re-post while it runs or once it confirmed starts nothing new; after a refusal, e.g. `token_paused`, the permit nonce is still unused and a new post submits again); an at_risk charge is retried as soon as the Approval is indexed. Refused for a cancelled, lapsed or completed subscription (session_invalid_state).
         *
         *     Public: no credentials.
         */
        post: operations["renewCheckoutSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/subscriptions/{id}/renewals/{nonce}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * On-chain status of a renewal submitted from the hosted page
         * @description Public: no credentials.
         */
        get: operations["getCheckoutSubscriptionRenewalByNonce"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a subscription
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_read`.
         */
        get: operations["getSubscription"];
        put?: never;
        /**
         * Update a subscription
         * @description Only `metadata` may change here (merged; a key sent as "" is removed), in any status: the plan changes with POST /v1/subscriptions/{id}/change-plan, the status with cancel, pause and resume. Sends `subscription.updated` with `previousAttributes.metadata` when something changed; a call that changes nothing sends nothing.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_write`.
         */
        post: operations["createSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}/period-closes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a metered subscription's period closes
         * @description Each period of a metered plan closes at its start, after the plan's usage grace: its fixed price in advance, the usage of the period before in arrears (one line per meter with quantity and tiers), the total, what was pulled on chain (at most the authorised cap) and the open invoice for any rest (docs/metered-billing.md). Newest first; none for a fixed plan.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_read`.
         */
        get: operations["listSubscriptionPeriodCloses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}/upcoming-invoice": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Preview a subscription's next charge
         * @description The lines the next charge would have if usage stopped now, computed by the period close's own code: the next period's fixed price, its discount, any proration waiting and, for a metered plan, one usage line per meter from the usage so far in the current period (quantity and tiers); the total, what would be pulled (at most the authorised cap) and the rest an open invoice would bill. Once the period is closed (its charge retried) the frozen close is shown (`closed: true`). A cancelled, lapsed, completed or paused subscription, or one set to cancel at the period end, has no next charge: 403 `session_invalid_state` (docs/metered-billing.md).
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_read`.
         */
        get: operations["getSubscriptionUpcomingInvoice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List subscriptions
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_read`.
         */
        get: operations["listSubscriptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a subscription
         * @description Marks the subscription cancelled at once (the response shows it) and queues the on-chain cancel, which the subscription workflow retries until it lands. Cancelling a cancelled, lapsed or completed subscription is `session_invalid_state`.
         *
         *     With `atPeriodEnd: true` the subscription is not cancelled now: `cancelAtPeriodEnd` is set and `cancelAt` is the start of the next period (the trial end for a trialing one), when it is cancelled (on chain too) instead of charged; `subscription.updated` is sent. Only a `trialing` or `active` subscription with a next period can be set to cancel at the period end, once; anything else is `session_invalid_state`. A cancel now replaces a scheduled one.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_write`.
         */
        post: operations["cancelSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}/uncancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Undo a cancel at period end
         * @description Clears `cancelAtPeriodEnd`, `cancelAt` and `cancellationDetails` of a subscription set to cancel at the period end, before that happens: it renews as before. Sends `subscription.updated`. A subscription with no scheduled cancel, or one already ended, is `session_invalid_state`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_write`.
         */
        post: operations["uncancelSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a subscription
         * @description Pauses an `active` subscription: each period that comes due while it is `paused` is skipped and never charged. Anything else is `session_invalid_state`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_write`.
         */
        post: operations["pauseSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a paused subscription
         * @description Makes a `paused` subscription `active` again; the next period that comes due is charged. Anything else is `session_invalid_state`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_write`.
         */
        post: operations["resumeSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing-portal/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a customer portal session
         * @description A link (`url`) for one customer of this merchant and mode to a hosted page where they see their subscriptions (next charge amount and date, discount, pending plan change), payments and invoices, and cancel, undo a cancel at period end, switch plan or apply a promotion code as the portal configuration allows. The link works for one hour (`expiresAt`); only a hash of its token is kept, so the `url` is returned only here. An unknown customer, or another merchant’s or mode’s, is `invalid_request` (param `customerId`); `returnUrl` must be https (http only for localhost in test mode), else `invalid_request` (param `returnUrl`).
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_write`.
         */
        post: operations["createBillingPortalSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing-portal/configuration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve the portal configuration
         * @description What the customer portal offers in this mode. Until it is changed: cancel at the end of the period with every reason offered, no plan switching, no promotion codes (`id` null).
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_read`.
         */
        get: operations["getBillingPortalConfiguration"];
        put?: never;
        /**
         * Update the portal configuration
         * @description Changes only the keys sent. `planSwitching.planIds`: plans of this merchant and mode, not archived (else `invalid_request`, param `planSwitching.planIds.<index>`); a customer may switch between them when their subscription is on one of them, under the rules of `POST /v1/subscriptions/{id}/change-plan`. An empty list turns switching off.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_write`.
         */
        post: operations["updateBillingPortalConfiguration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscription-charges/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a subscription charge
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_read`.
         */
        get: operations["getSubscriptionCharge"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscription-charges/{id}/receipt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download the receipt of a subscription charge as a PDF
         * @description For a succeeded charge: merchant name, the period, the payment date, the charge's `lines` (the plan's amount, then `Discount (<coupon name>, 20% off)` with its negative amount) and the total paid, with the transaction. 403 session_invalid_state for a charge that has not succeeded.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_read`.
         */
        get: operations["getSubscriptionChargeReceipt"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscription-charges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List subscription charges
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_read`.
         */
        get: operations["listSubscriptionCharges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payment-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payment sessions
         * @description Newest first. Filters combine: `customerId` (the paying wallet's customer), `metadata[key]=value` (exact, every pair given must match), `status`, `chainId`, the created-at window and `q`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `payment_sessions_read`.
         */
        get: operations["listPaymentSessions"];
        put?: never;
        /**
         * Create a payment session (allowed for publishable keys)
         * @description Publishable keys allowed (browser use, CORS: see PUT /v1/merchants/me/allowed-origins). Required scope: `payment_sessions_write`.
         */
        post: operations["createPaymentSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payment-sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a payment session
         * @description A publishable key reads only the sessions it created itself; any other id is not_found for it.
         *
         *     Publishable keys allowed (browser use, CORS: see PUT /v1/merchants/me/allowed-origins). Required scope: `payment_sessions_read`.
         */
        get: operations["getPaymentSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payment-sessions/{id}/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a payment session's transactions
         * @description Every on-chain transaction of the session, oldest first: relayed payments (failed tries included, with their named refusal), transfers into its deposit address and the sweeps forwarding them, and refunds; each with its status, block, confirmations against what the mode requires, and when it was confirmed.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `payment_sessions_read`.
         */
        get: operations["listPaymentSessionTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/checkout/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A payment session for the hosted checkout page
         * @description Public: no credentials.
         */
        get: operations["getCheckoutSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/storefront": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve the storefront
         * @description The storefront of this merchant and mode; `not_found` until it is created.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `plans_read`.
         */
        get: operations["getStorefront"];
        put?: never;
        /**
         * Create or update the storefront
         * @description One storefront per merchant and mode. The first call creates it (`slug` and `name` required); later calls change only the keys sent (`null` clears an optional field). A slug held by any other storefront, in either mode, is `invalid_request` with param `slug`. Emits `storefront.updated` when something changed.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `storefront_write`.
         */
        post: operations["createStorefront"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/storefront/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List products
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `plans_read`.
         */
        get: operations["listStorefrontProducts"];
        put?: never;
        /**
         * Add a product
         * @description A one-shot product has an `amount`; a product with `planId` enrols the buyer in that plan (its price is the plan's). Active products appear on the public page `/store/{slug}`. Emits `product.created`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `storefront_write`.
         */
        post: operations["createStorefrontProduct"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/storefront/products/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a product
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `plans_read`.
         */
        get: operations["getStorefrontProduct"];
        put?: never;
        /**
         * Update a product
         * @description Only the keys sent change. A new `amount` applies to future purchases. An archived product cannot change (`session_invalid_state`). Emits `product.updated`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `storefront_write`.
         */
        post: operations["updateProduct"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/storefront/products/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a product
         * @description Takes the product off the public page for good (it can no longer be bought or changed); it stays readable, and payment sessions bought for it keep their `productId`. Archiving an archived product is `session_invalid_state`. Emits `product.archived`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `storefront_write`.
         */
        post: operations["archiveProduct"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/store/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The public store page
         * @description Public, no credentials. A server-rendered HTML page listing the active products with their prices and buy buttons; with `Accept: application/json` (and not text/html) the same data as JSON (below). An unknown slug is 404: an HTML page for browsers, the error envelope (`not_found`, param `slug`) for JSON.
         *
         *     Public: no credentials.
         */
        get: operations["getStore"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/store/{slug}/products/{id}/purchase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Buy a product from the public store page
         * @description Public and same-origin: the store page's buy button posts here. For a one-shot product it creates a payment session for the product's price (naming the product in `productId`, with the storefront's success and cancel URLs) and answers with its hosted checkout; for a subscription product it answers with the plan's hosted enrolment page. An unknown store or a product not on sale is `not_found`. Rate-limited per client IP and per storefront (429 `rate_limited` with `Retry-After`), checked before anything is created.
         *
         *     Public: no credentials.
         */
        post: operations["purchaseStoreProduct"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List invoices
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `invoices_read`.
         */
        get: operations["listInvoices"];
        put?: never;
        /**
         * Create an invoice (draft) with its backing payment session
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `invoices_write`.
         */
        post: operations["createInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve an invoice
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `invoices_read`.
         */
        get: operations["getInvoice"];
        put?: never;
        /**
         * Update an invoice
         * @description Only `metadata` may change, in any status (merged; a key sent as "" is removed): what the invoice asks for is fixed once created. Sends `invoice.updated` with `previousAttributes.metadata` when the pairs changed (nothing when not). An unknown id, or another merchant’s or mode’s, is `not_found`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `invoices_write`.
         */
        post: operations["updateInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Email the invoice to the customer (again)
         * @description draft -> sent; invoice.sent fires once the SMTP server accepted the email. On a sent or overdue invoice it emails the customer again (a reminder with the same links) and changes nothing else: no status change, no second invoice.sent. 403 session_invalid_state when customerEmail is not set or the invoice is paid or void.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `invoices_write`.
         */
        post: operations["sendInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}/void": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Void the invoice and cancel its payment session
         * @description From draft, sent or overdue. 403 session_invalid_state for a paid (refund instead) or void invoice, or while its payment is processing.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `invoices_write`.
         */
        post: operations["voidInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}/pdf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an invoice as a PDF
         * @description Generated on request from the invoice as it is now: merchant name, number, status, issue and due dates, customer, each line (description, quantity, unit price, amount), total and the hosted invoice link. Amounts are written as money (`28.00 USDC`).
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `invoices_read`.
         */
        get: operations["getInvoicePdf"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List refunds
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `refunds_read`.
         */
        get: operations["listRefunds"];
        put?: never;
        /**
         * Create a refund and get the wallet-signing instructions
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `refunds_write`.
         */
        post: operations["createRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/refunds/{id}/signature": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record the refund's on-chain transaction (verified before the refund succeeds)
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `refunds_write`.
         */
        post: operations["recordRefundSignature"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/refunds/{id}/authorization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a pending refund with the payout wallet's signed EIP-3009 transfer (the relayer submits it)
         * @description For a `pending` (method `wallet`) refund: the payout wallet signs TransferWithAuthorization {from: instructions.from, to: instructions.to, value: amount, validAfter, validBefore, nonce} and this submits it. The refund turns `processing`, then `succeeded` with refund.succeeded once confirmed, or `failed` with the token's named refusal and refund.failed. A signature that is not the payout wallet's, or a message that is not exactly this refund, is 400 invalid_request and sends nothing.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `refunds_write`.
         */
        post: operations["authorizeRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/refunds/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a pending (or requires_action) refund, releasing the amount it reserved
         * @description Only a pending or requires_action refund can be cancelled; any other answers 403 session_invalid_state.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `refunds_write`.
         */
        post: operations["cancelRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/refunds/allowance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The refund allowance: the payout wallet's USDC allowance for the operator, and how to grant it
         * @description Per chain (`chainId`, default the mode's first chain; a chain the mode lacks is 400 invalid_request, param chainId): while it covers a refund of a payment on that chain, POST /v1/refunds is sent by the operator there (transferFrom payout -> customer) and completes by itself.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `refunds_read`.
         */
        get: operations["getRefundAllowance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/refunds/allowance/permit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Grant the refund allowance with the payout wallet's EIP-2612 permit (the operator sends it and pays the gas)
         * @description Sign Permit {owner: payout address, spender, value, nonce, deadline} with the domain of GET /v1/refunds/allowance. The signature is checked before anything is sent; the answer is the allowance once the permit is mined. A signature that is not the payout wallet's, a past deadline or a used nonce is 400 invalid_request, param `signature` or `deadline`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `refunds_write`.
         */
        post: operations["grantRefundAllowance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/refunds/recipient": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who a refund of a payment session would go to, and why (before creating it)
         * @description The rules of POST /v1/refunds without destination or depositId: the relayed payment's signer, else the one sender of the deposits that paid it (never a later deposit's), else the one sender of its late deposits; several senders: `requiresClaim`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `refunds_read`.
         */
        get: operations["previewRefundRecipient"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/refunds/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a refund
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `refunds_read`.
         */
        get: operations["getRefund"];
        put?: never;
        /**
         * Update a refund
         * @description Only `metadata` may change, in any status (merged; a key sent as "" is removed): the amount and recipient are fixed once created. Sends `refund.updated` with `previousAttributes.metadata` when the pairs changed (nothing when not). An unknown id, or another merchant’s or mode’s, is `not_found`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `refunds_write`.
         */
        post: operations["updateRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/secret-scanning/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report leaked tokens (secret-scanning partner feed)
         * @description For partners only, authenticated by an ECDSA P-256/SHA-256 signature of the raw body (base64 DER) in `Secret-Scanning-Signature` with the signing key named in `Secret-Scanning-Key-Identifier` (GitHub's `Github-Public-Key-*` headers are accepted too). A missing or bad signature is 401 authentication_error. Each active secret key reported is revoked and replaced at once and its owner emailed.
         *
         *     Public: no credentials.
         */
        post: operations["createSecretScanningReport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stats/mrr": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Monthly recurring revenue and its movements
         * @description Per bucket: startingMrr (MRR just before the bucket), the movements new (first payment of a subscription), expansion and contraction (amount changes of a paying subscription), churned (a paying subscription cancelled, lapsed, paused or completed), reactivation (paying again after a pause), netNewMrr = new + expansion + reactivation - contraction - churned, and endingMrr = startingMrr + netNewMrr. Summary: the same over the whole range, and arr = endingMrr x 12.
         *
         *     Query: `from` and `to` (UTC dates, both included, `from <= to`, at most 1096 days and 366 buckets), `interval` (day, week from Monday, month; default month), `currency` (default USDC), optional `planId`.
         *
         *     Amounts are integer strings in base units; rates are decimal strings with 4 digits, rounded half up, computed exactly.
         *
         *     A subscription's MRR is its charge per period normalised to a month and truncated per subscription: yearly / 12, quarterly / 3, monthly x 1, weekly x 52 / 12, daily x 365 / 12, each divided by the plan's intervalCount; it counts while the subscription is active or at_risk (not trialing, paused or ended).
         *
         *     Figures come from a change ledger written in the same transaction as each subscription change; see docs/analytics.md for worked examples.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `analytics_read`.
         */
        get: operations["getStatsMrr"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stats/churn": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Customer and MRR churn
         * @description Per bucket: customerChurnRate = churnedCustomers / customersAtStart, where churnedCustomers counts once each customer whose MRR (all its subscriptions in the currency) went to zero by a cancel (voluntary) or a lapse (involuntary; voluntary wins if both) in the bucket; mrrChurnRate = churnedMrr / mrrAtStart, churnedMrr being the MRR of the subscriptions cancelled or lapsed in the bucket. With planId a "customer" is one subscription of that plan. The summary applies the same formulas to the whole range (not per month).
         *
         *     Query: `from` and `to` (UTC dates, both included, `from <= to`, at most 1096 days and 366 buckets), `interval` (day, week from Monday, month; default month), `currency` (default USDC), optional `planId`.
         *
         *     Amounts are integer strings in base units; rates are decimal strings with 4 digits, rounded half up, computed exactly.
         *
         *     A subscription's MRR is its charge per period normalised to a month and truncated per subscription: yearly / 12, quarterly / 3, monthly x 1, weekly x 52 / 12, daily x 365 / 12, each divided by the plan's intervalCount; it counts while the subscription is active or at_risk (not trialing, paused or ended).
         *
         *     Figures come from a change ledger written in the same transaction as each subscription change; see docs/analytics.md for worked examples.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `analytics_read`.
         */
        get: operations["getStatsChurn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stats/conversion": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Conversion of payment sessions, invoices and trials
         * @description By cohort: payment sessions created in the bucket and, of them, how many are paid (completed) and expired now (storefront: those with a product); invoices sent in the bucket and how many of them are paid; subscriptions created with a trial in the bucket and how many of them have paid since. rate = paid / created (or converted / started). planId filters trials only.
         *
         *     Query: `from` and `to` (UTC dates, both included, `from <= to`, at most 1096 days and 366 buckets), `interval` (day, week from Monday, month; default month), `currency` (default USDC), optional `planId`.
         *
         *     Amounts are integer strings in base units; rates are decimal strings with 4 digits, rounded half up, computed exactly.
         *
         *     A subscription's MRR is its charge per period normalised to a month and truncated per subscription: yearly / 12, quarterly / 3, monthly x 1, weekly x 52 / 12, daily x 365 / 12, each divided by the plan's intervalCount; it counts while the subscription is active or at_risk (not trialing, paused or ended).
         *
         *     Figures come from a change ledger written in the same transaction as each subscription change; see docs/analytics.md for worked examples.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `analytics_read`.
         */
        get: operations["getStatsConversion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stats/ltv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Customer lifetime value
         * @description At the end of each bucket: arpa = mrr / customers (truncated); over the trailing window of 3 calendar months ending there, monthlyChurnRate = churnedCustomersInWindow / (customersAtWindowStart x 3); ltv = arpa x customersAtWindowStart x 3 / churnedCustomersInWindow (= arpa / monthlyChurnRate, truncated), null when nobody churned in the window or nobody paid at its start. The summary is the last bucket's figures plus cohorts: customers first seen in each month of the range and the succeeded charges they have paid up to `to`.
         *
         *     Query: `from` and `to` (UTC dates, both included, `from <= to`, at most 1096 days and 366 buckets), `interval` (day, week from Monday, month; default month), `currency` (default USDC), optional `planId`.
         *
         *     Amounts are integer strings in base units; rates are decimal strings with 4 digits, rounded half up, computed exactly.
         *
         *     A subscription's MRR is its charge per period normalised to a month and truncated per subscription: yearly / 12, quarterly / 3, monthly x 1, weekly x 52 / 12, daily x 365 / 12, each divided by the plan's intervalCount; it counts while the subscription is active or at_risk (not trialing, paused or ended).
         *
         *     Figures come from a change ledger written in the same transaction as each subscription change; see docs/analytics.md for worked examples.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `analytics_read`.
         */
        get: operations["getStatsLtv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stats/forecast": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Projected MRR and cash
         * @description Projects `horizon` buckets starting the day after `to` from the schedules of live subscriptions (next charge date, then one charge per billing period until a fixed term ends), reduced by survival = (1 - c)^monthsAhead, c being the monthly churn observed over `from`..`to`: churned customers x 365 / (customers at `from` x days x 12). The assumptions are returned in summary.assumptions.
         *
         *     Query: `from` and `to` (UTC dates, both included, `from <= to`, at most 1096 days and 366 buckets), `interval` (day, week from Monday, month; default month), `currency` (default USDC), optional `planId`.
         *
         *     Amounts are integer strings in base units; rates are decimal strings with 4 digits, rounded half up, computed exactly.
         *
         *     A subscription's MRR is its charge per period normalised to a month and truncated per subscription: yearly / 12, quarterly / 3, monthly x 1, weekly x 52 / 12, daily x 365 / 12, each divided by the plan's intervalCount; it counts while the subscription is active or at_risk (not trialing, paused or ended).
         *
         *     Figures come from a change ledger written in the same transaction as each subscription change; see docs/analytics.md for worked examples.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `analytics_read`.
         */
        get: operations["getStatsForecast"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/balances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The payout address's USDC balance on each chain of the mode
         * @description One entry per configured chain of the key's mode: what the payout address holds there now (sweeps of deposits and relayed payments pay it on the chain the money came in on; refunds from the refund allowance are sent from it on that chain). A chain whose node does not answer is listed with `unavailable: true`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `analytics_read`.
         */
        get: operations["listPayoutBalances"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The agent configuration, created with the documented defaults on first read
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `agents_read`.
         */
        get: operations["getAgentsConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update the agent configuration
         * @description Only the keys sent are applied; nested objects are merged key by key. A refused update changes nothing and names the fields in error.details.issues. Each change is an activity record (configuration / config_updated).
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `agents_write`.
         */
        patch: operations["updateAgentsConfig"];
        trace?: never;
    };
    "/v1/agents/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The agent activity feed, newest first
         * @description Filters combine (AND).
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `agents_read`.
         */
        get: operations["listAgentsActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List escrow jobs
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `agents_read`.
         */
        get: operations["listAgentsJobs"];
        put?: never;
        /**
         * Create an escrow job (ERC-8183)
         * @description Auto-approved (status `approved`, then funded on-chain) when amount < requireHumanApprovalAboveUsdCents x 10,000 base units, the vendor is in approvedVendors and the month stays within monthlySpendCapUsdCents; otherwise `proposed` with approvalReasons and agent.job_proposed.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `agents_write`.
         */
        post: operations["createAgentsJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve an escrow job
         * @description Secret API key or dashboard session; not publishable keys. Required scope: `agents_read`.
         */
        get: operations["getAgentsJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/jobs/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a proposed job
         * @description proposed -> approved; the job workflow then funds the escrow. 403 session_invalid_state for a job in any other status.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `agents_write`.
         */
        post: operations["approveAgentsJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/jobs/{id}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete a submitted job (the agent wallet as evaluator)
         * @description For a job whose evaluator is the agent wallet (the default): the job workflow sends the escrow `complete` from the agent wallet, releasing the budget to the vendor; the job becomes `completed` (agent.job_completed) when it is mined. 403 session_invalid_state unless the job is `submitted` and its evaluator is the agent wallet.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `agents_write`.
         */
        post: operations["completeAgentsJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/jobs/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject a funded or submitted job (the agent wallet as evaluator)
         * @description For a job whose evaluator is the agent wallet (the default): the job workflow sends the escrow `reject`, refunding the budget to the agent wallet; the job becomes `rejected` (funded) or `disputed` (submitted, agent.job_disputed) when it is mined. 403 session_invalid_state unless the job is `funded` or `submitted` and its evaluator is the agent wallet.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `agents_write`.
         */
        post: operations["rejectAgentsJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/test-clocks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List test clocks
         * @description Test mode only: a live key is refused with `permission_denied`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_read`.
         */
        get: operations["listTestClocks"];
        put?: never;
        /**
         * Create a test clock
         * @description Test mode only: a live key is refused with `permission_denied`. Moves the test chain to `frozenTime` (never backwards) and attaches the given payer wallets.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_write`.
         */
        post: operations["createTestClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/test-clocks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a test clock
         * @description Test mode only: a live key is refused with `permission_denied`.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_read`.
         */
        get: operations["getTestClock"];
        put?: never;
        post?: never;
        /**
         * Delete a test clock
         * @description Test mode only: a live key is refused with `permission_denied`. Cancels the subscriptions on the clock and detaches its wallets.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_write`.
         */
        delete: operations["deleteTestClock"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/test-clocks/{id}/wallets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Attach payer wallets to a test clock
         * @description Test mode only: a live key is refused with `permission_denied`. Running subscriptions of these wallets wait on the clock from now on.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_write`.
         */
        post: operations["walletsTestClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/test-clocks/{id}/advance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Advance a test clock
         * @description Test mode only: a live key is refused with `permission_denied`. Answers at once with status `advancing`; the clock is `ready` again once the test chain's time and every workflow on the clock reached `frozenTime`. Forward only, one advance at a time.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_write`.
         */
        post: operations["advanceTestClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/test-clocks/{id}/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete a test clock
         * @description Test mode only: a live key is refused with `permission_denied`. Cancels the subscriptions on the clock and detaches its wallets.
         *
         *     Secret API key or dashboard session; not publishable keys. Required scope: `subscriptions_write`.
         */
        post: operations["deleteTestClockByAction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "coupon.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A coupon was created
         * @description The coupon as created.
         *
         *     Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "coupon.created";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            object: components["schemas"]["Coupon"];
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "coupon.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A coupon's name or metadata changed
         * @description Only the name and metadata of a coupon change: its terms are what discounts already applied were given.
         *
         *     Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "coupon.updated";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            object: components["schemas"]["Coupon"];
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "coupon.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A coupon was deleted
         * @description The coupon as it was when deleted (`valid: false` from then on). Deletion is soft: it is `not_found` to the API and redeemed no more, and the discounts already applied run to their end.
         *
         *     Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "coupon.deleted";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            object: components["schemas"]["Coupon"];
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "promotion_code.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A promotion code was created
         * @description The customer-facing code on a coupon, as created.
         *
         *     Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "promotion_code.created";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            object: components["schemas"]["PromotionCode"];
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "promotion_code.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A promotion code's active flag or metadata changed
         * @description An inactive code is refused at redemption; discounts already applied through it run on.
         *
         *     Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "promotion_code.updated";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            object: components["schemas"]["PromotionCode"];
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "customer.discount.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A coupon was applied to a subscription
         * @description By the merchant (`POST /v1/subscriptions/{id}/discount`), or from a promotion code the customer gave on the hosted enrolment page, redeemed when the subscription is recorded. From the next charge on, each charge pulls the discounted amount until the coupon's duration is used up.
         *
         *     Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "customer.discount.created";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            /** @description The discount as applied. */
                            object: components["schemas"]["Discount"] | null;
                            subscription: components["schemas"]["Subscription"];
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "customer.discount.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A subscription's discount ended
         * @description Removed by the merchant, replaced by another coupon, or used up after its last covered charge (`periodsRemaining: 0`; the `subscription.charged` of that period comes after it). The next charge pulls the full amount. `subscription`: the subscription without the discount; for a replaced one, the subscription just before the replacement (the `customer.discount.created` that follows carries the new discount).
         *
         *     Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "customer.discount.deleted";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            /** @description The discount as it ended (null only if none could be rendered). */
                            object: components["schemas"]["Discount"] | null;
                            subscription: components["schemas"]["Subscription"];
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A subscription changed: its plan, or its cancel at period end
         * @description Two kinds of change send it. **A plan change** (`POST /v1/subscriptions/{id}/change-plan`) carries `planChange`, whose `status` says which: `applied` (an upgrade within the authorised amount or any change in a trial, at once; a scheduled downgrade at the start of its period, sent by the workflow before that period is charged), `scheduled` (a downgrade for the end of the period), `requires_customer_action` (above the authorised amount: nothing changes or is charged), `cancelled` (the current plan asked for again, or replaced by a new change). **A cancel at period end**: `POST /v1/subscriptions/{id}/cancel` with `atPeriodEnd: true` sets `cancelAtPeriodEnd`, `cancelAt` and `cancellationDetails`, `POST /v1/subscriptions/{id}/uncancel` clears them (no `planChange`); when `cancelAt` comes, `subscription.cancelled` follows and nothing is charged. **A metadata change**: `POST /v1/subscriptions/{id}` with `metadata` (no `planChange`; nothing sent when nothing changed). **A move to another wallet** the customer started in the portal, once the new wallet’s enrolment is indexed: `walletChange` (`id`, `status` `applied`, `periodIndex`, `effectiveAt`: from when the new wallet is charged), `customer.walletAddress` the new wallet. In each, `previousAttributes` holds the fields of `object` the change replaced, with their values then.
         *
         *     Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "subscription.updated";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            object: components["schemas"]["Subscription"];
                            /** @description Present when the change is a plan change. */
                            planChange?: components["schemas"]["SubscriptionPlanChange"];
                            /** @description Present when the change is a move to another wallet. */
                            walletChange?: {
                                /** @description The wallet change (`swc_...`). */
                                id: string;
                                /** @constant */
                                status: "applied";
                                /** @description The first period charged to the new wallet. */
                                periodIndex: number;
                                /**
                                 * Format: date-time
                                 * @description That period’s start.
                                 */
                                effectiveAt: string;
                            };
                            /** @description The fields of `object` before this change, with their values then. */
                            previousAttributes: Record<string, never>;
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.trial_will_end": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A trial ends in three days
         * @description Sent once per subscription, three days before `trialEnd` (at once when the trial is shorter), while it is still `trialing`: time to remind the customer to fund the wallet. What a refused first charge then does is the plan's `trialEndBehavior`.
         *
         *     Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "subscription.trial_will_end";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            object: components["schemas"]["Subscription"];
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.usage_over_cap": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A metered period's total was above the authorised cap
         * @description A metered subscription's period close (docs/metered-billing.md) came to more than the cap the subscriber authorised per period on chain: the cap is pulled with the period's charge, and the rest (`object.remainder`) is the open invoice `invoice`, whose hosted page and payment session the customer pays it through; it is sent at once (`sent`, emailed when the customer has an email; `invoice.created` is sent for it too). Once per subscription and period.
         *
         *     Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "subscription.usage_over_cap";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            object: components["schemas"]["SubscriptionPeriodClose"];
                            invoice: components["schemas"]["Invoice"];
                            subscription: components["schemas"]["Subscription"];
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.final_usage_invoiced": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A cancelled metered subscription's last usage was invoiced
         * @description A metered subscription was cancelled after its last charge: the usage of that last period up to the cancel (after the plan's usage grace) was priced and frozen as a final close (`object.final`), and, since no pull collects it (the enrolment is cancelled on chain), its whole total is the open invoice `invoice`, sent at once like every usage invoice. Once per subscription, only when the total is above 0.
         *
         *     Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "subscription.final_usage_invoiced";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            object: components["schemas"]["SubscriptionPeriodClose"];
                            invoice: components["schemas"]["Invoice"];
                            subscription: components["schemas"]["Subscription"];
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.usage_threshold_reached": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A metered subscription's usage reached its plan's threshold
         * @description The usage of a metered subscription not yet billed reached its plan's `usageThreshold` before the period ended (docs/metered-billing.md, "Usage threshold"): the usage from `object.usageStart` to `object.usageEnd` was priced and is the open invoice `invoice`, sent at once like every usage invoice; nothing is pulled on chain, and the period close bills only the usage after `object.usageEnd`. Once per bill (a subscription may reach its threshold more than once a period).
         *
         *     Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "subscription.usage_threshold_reached";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            object: {
                                id: string;
                                /** @enum {string} */
                                object: "subscription_usage_threshold_bill";
                                subscriptionId: string;
                                /**
                                 * Format: date-time
                                 * @description Start of the usage billed.
                                 */
                                usageStart: string;
                                /**
                                 * Format: date-time
                                 * @description End (exclusive) of the usage billed: the cut later windows start at.
                                 */
                                usageEnd: string;
                                /** @description One usage line per metered price. */
                                lines: components["schemas"]["SubscriptionPeriodCloseLine"][];
                                /** @description Base units: the invoice's amount, at least the threshold. */
                                total: string;
                                invoiceId: string;
                                livemode: boolean;
                                /** Format: date-time */
                                createdAt: string;
                            };
                            invoice: components["schemas"]["Invoice"];
                            subscription: components["schemas"]["Subscription"];
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "billing_portal.session.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A customer portal session was created
         * @description By `POST /v1/billing-portal/sessions` (the merchant’s link), or when a customer signed in with their wallet on the merchant’s public portal page (`returnUrl` null). `url` is always null here: the session’s token is kept only as a hash and returned only once, to whoever created it.
         *
         *     Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "billing_portal.session.created";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            object: components["schemas"]["BillingPortalSession"];
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "invoice.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An invoice's metadata changed
         * @description By `POST /v1/invoices/{id}` when the pairs changed (nothing is sent when they did not). `previousAttributes.metadata` is the metadata before.
         *
         *     Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "invoice.updated";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            object: components["schemas"]["Invoice"];
                            /** @description The fields of `object` before this change, with their values then. */
                            previousAttributes: Record<string, never>;
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "refund.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A refund's metadata changed
         * @description By `POST /v1/refunds/{id}` when the pairs changed (nothing is sent when they did not). `previousAttributes.metadata` is the metadata before.
         *
         *     Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "refund.updated";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            object: components["schemas"]["Refund"];
                            /** @description The fields of `object` before this change, with their values then. */
                            previousAttributes: Record<string, never>;
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "customer.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A customer changed
         * @description The merchant changed the customer's metadata (`POST /v1/customers/{id}`; a call that changes nothing sends nothing), or the customer moved their subscription to another wallet in the portal and the customer's wallet moved with it (sent after that subscription's `subscription.updated`). `previousAttributes` holds the fields of `object` the change replaced (`metadata` or `walletAddress`), with their values then.
         *
         *     Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "customer.updated";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            object: components["schemas"]["Customer"];
                            /** @description The fields of `object` before this change, with their values then. */
                            previousAttributes: Record<string, never>;
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A relayed payment failed
         * @description The token refused the payment (or its transaction reverted): the relay submission is `failed` with `failureCode` (a refusal code, else the contract error name, `Reverted` or `NonceConsumed`) and `failureReason`. The payment session is open again (or expired), so the customer can pay anew when `retry` allows it.
         *
         *     Refusal codes (`failureCode`): `insufficient_funds`, `insufficient_allowance`, `payer_blacklisted`, `merchant_blacklisted`, `account_blacklisted`, `token_paused`, `authorization_expired`, `authorization_not_yet_valid`, `authorization_used`, `signature_invalid`. Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "payment.failed";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            object: components["schemas"]["RelaySubmission"];
                            paymentSessionId: string | null;
                            /**
                             * @description `never`: the cause does not go away by waiting (a blacklisted address, a bad or used signature); `later`: the token is paused (or the authorization is not valid yet), the same call can succeed once it resumes; `dunning`: low balance or allowance, retried on the dunning schedule.
                             * @enum {string}
                             */
                            retry: "never" | "later" | "dunning";
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "refund.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The token refused a refund's transfer
         * @description The refund's recorded transfer reverted because USDC refused it: the refund is `failed` with `failureCode` and `failureReason`, and no longer reserves its amount. Create a new refund once the cause is gone (`retry`).
         *
         *     Refusal codes (`failureCode`): `insufficient_funds`, `insufficient_allowance`, `payer_blacklisted`, `merchant_blacklisted`, `account_blacklisted`, `token_paused`, `authorization_expired`, `authorization_not_yet_valid`, `authorization_used`, `signature_invalid`. Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "refund.failed";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            object: components["schemas"]["Refund"];
                            /**
                             * @description `never`: the cause does not go away by waiting (a blacklisted address, a bad or used signature); `later`: the token is paused (or the authorization is not valid yet), the same call can succeed once it resumes; `dunning`: low balance or allowance, retried on the dunning schedule.
                             * @enum {string}
                             */
                            retry: "never" | "later" | "dunning";
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "agent.job_failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An approved agent job could not be funded
         * @description An escrow call of the job reverted: `failureReason` says which, and `failureCode` names the token refusal when USDC refused it (a blacklisted agent wallet, too low a balance). Nothing is escrowed. A paused token does not fail a job: its funding waits until USDC resumes.
         *
         *     Refusal codes (`failureCode`): `insufficient_funds`, `insufficient_allowance`, `payer_blacklisted`, `merchant_blacklisted`, `account_blacklisted`, `token_paused`, `authorization_expired`, `authorization_not_yet_valid`, `authorization_used`, `signature_invalid`. Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "agent.job_failed";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            object: components["schemas"]["AgentJob"];
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.charge_failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A subscription charge failed
         * @description The charge is `failed` with `failureCode`: `insufficient_funds`/`insufficient_allowance` follow the dunning schedule (`at_risk`, retried until the merchant's grace window ends); `token_paused` is retried the same way and succeeds once USDC resumes; `payer_blacklisted`/`merchant_blacklisted` lapse the subscription at once (`subscription.lapsed` follows).
         *
         *     Refusal codes (`failureCode`): `insufficient_funds`, `insufficient_allowance`, `payer_blacklisted`, `merchant_blacklisted`, `account_blacklisted`, `token_paused`, `authorization_expired`, `authorization_not_yet_valid`, `authorization_used`, `signature_invalid`. Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "subscription.charge_failed";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            object: components["schemas"]["SubscriptionCharge"];
                            subscription: components["schemas"]["Subscription"];
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.deposit_sweep_blocked": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The token refused to move a deposit to the merchant's payout address
         * @description A version 2 deposit address received the transfer but USDC refused to move it to the payout address (the payout is blacklisted, or the token is paused): the deposit stays at its address, marked blocked, and the payment session's accounting is unchanged. One event per deposit, sent to its own merchant only. The sweep is tried again by itself once the cause is gone (`retry: later`): unblacklist or change nothing, it needs no call. `failureCode` is a refusal code, or `sweep_failed` when the token named nothing known.
         *
         *     Refusal codes (`failureCode`): `insufficient_funds`, `insufficient_allowance`, `payer_blacklisted`, `merchant_blacklisted`, `account_blacklisted`, `token_paused`, `authorization_expired`, `authorization_not_yet_valid`, `authorization_used`, `signature_invalid`. Signed as every webhook (Standard Webhooks headers).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The event id (`evt_...`); the same for every delivery attempt. */
                        id: string;
                        /** @constant */
                        object: "event";
                        /** @constant */
                        type: "payment.deposit_sweep_blocked";
                        /** Format: date-time */
                        created: string;
                        livemode: boolean;
                        data: {
                            object: components["schemas"]["PaymentSession"];
                            deposit: {
                                /** @description The deposit id. */
                                id: string;
                                /** @constant */
                                object: "deposit";
                                paymentSessionId: string;
                                /** @description The session's deposit address the transfer went to. */
                                address: string;
                                /** @description Who sent the transfer. */
                                from: string;
                                /** @description Token base units (USDC: 6 decimals), as an integer string. */
                                amount: string;
                                /**
                                 * @description The deposit's accounting status.
                                 * @enum {string}
                                 */
                                status: "pending" | "credited" | "late" | "removed";
                                transactionHash: string;
                                logIndex?: number;
                                blockNumber?: string;
                                /** @description The sweep transaction the token refused, when one was sent. */
                                sweepTransactionHash?: string | null;
                                livemode: boolean;
                                /** Format: date-time */
                                createdAt: string;
                            };
                            /** @description The payout address the token refused to pay. */
                            payoutAddress: string;
                            /** @description A refusal code (`merchant_blacklisted`, `token_paused`, ...) or `sweep_failed`. */
                            failureCode: string;
                            failureReason: string;
                            /**
                             * @description `never`: the cause does not go away by waiting (a blacklisted address, a bad or used signature); `later`: the token is paused (or the authorization is not valid yet), the same call can succeed once it resumes; `dunning`: low balance or allowance, retried on the dunning schedule.
                             * @constant
                             * @enum {string}
                             */
                            retry: "later";
                        };
                    };
                };
            };
            responses: {
                /** @description Received; any other status (or a timeout) is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        ErrorInput: {
            error: {
                /** @enum {string} */
                code: "authentication_error" | "permission_denied" | "merchant_not_synced" | "not_found" | "invalid_request" | "session_invalid_state" | "idempotency_error" | "rate_limited" | "api_error" | "service_unavailable" | "method_not_allowed";
                message: string;
                param?: string;
                details?: {
                    issues?: {
                        path: string;
                        message: string;
                    }[];
                } & {
                    [key: string]: unknown;
                };
                requestId: string;
            };
        };
        ApiKeyInput: {
            /** @description Key id (prefix `key_`); never the secret. */
            id: string;
            /** @constant */
            object: "api_key";
            name: string;
            /** @enum {string} */
            kind: "secret" | "publishable";
            /** @enum {string} */
            mode: "test" | "live";
            livemode: boolean;
            /** @description `sk_test_`, `sk_live_`, `pk_test_` or `pk_live_`. */
            prefix: string;
            /** @description The last four characters of the key, to recognise it. */
            last4: string;
            scopes: ("agents_read" | "agents_write" | "analytics_read" | "invoices_read" | "invoices_write" | "payment_sessions_read" | "payment_sessions_write" | "plans_read" | "plans_write" | "refunds_read" | "refunds_write" | "relay_read" | "relay_write" | "storefront_write" | "subscriptions_read" | "subscriptions_write" | "webhooks_read" | "webhooks_write")[];
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /** @description Updated at most every 30 seconds. */
            lastUsedAt: string | null;
            revoked: boolean;
            revokedAt: string | null;
            /** @description `revoked_by_merchant`, `leaked` or the reason given on revoke. */
            revokedReason: string | null;
            /** @description True for a key issued to replace a leaked one whose secret was not revealed yet (POST /v1/api-keys/{id}/reveal). */
            pendingReveal: boolean;
        };
        IssuedApiKeyInput: {
            key: components["schemas"]["ApiKeyInput"];
            /** @description The full key. Shown only in this response; store it now. */
            secret: string;
        };
        ApiKeyAuditEntryInput: {
            id: string;
            /** @constant */
            object: "api_key_audit_entry";
            apiKeyId: string;
            /** @enum {string} */
            action: "issued" | "revoked" | "revealed";
            /** @description `dashboard:<user id>` or `secret_scanning` (automatic leak rotation). */
            actor: string;
            reason: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        PaymentSessionDepositInput: {
            /** @description The session's deposit address on its chain `chainId`: send exactly `amount` of `token` there to it from any wallet or exchange. A forwarder contract is deployed there only once funds arrive, and they are swept to the payout address the address was made for (`payTo`). Another accepted chain with a payout address of its own has its own address (`networks`). */
            address: string;
            /** @description What credited transfers to the address add up to, in token base units (transfers seen after the session ended are late deposits, not counted here). */
            amountReceived: string;
            /** @description What is still to be paid for the session to complete: the amount less the credited transfers and a confirmed relayed payment ("0" once completed). A wallet payment through the relay must pay exactly this. */
            amountRemaining: string;
            /** @description What was paid beyond the amount, by transfers or by transfers and a relayed payment together: recorded and refundable through POST /v1/refunds. */
            amountExcess: string;
            /** @description EIP-681 URI of the exact transfer (`ethereum:<token>@<chainId>/transfer?address=<deposit>&uint256=<amount remaining>`), for QR codes, on the session's `chainId`; `networks` has one per accepted chain. */
            paymentUri: string;
            /** @description Every accepted chain with its deposit address: the same address on every chain that pays the same payout address (one CREATE2 factory address per chain). A transfer on any of them counts toward the session; one on a configured chain the session does not accept is recorded as a late deposit and refundable. A transfer to any of the session's addresses is swept to the payout address that address was made for. */
            networks: {
                chainId: number;
                /** @description The chain's name for people ("Base", "Arbitrum One"). */
                network: string;
                /** @description The token to send on this chain (USDC has its own address on each). */
                token: string;
                /** @description The deposit address on this chain: `address` when the chain pays the same payout address, else the session's address for this chain's payout (the forwarder's salt binds the payout). */
                address: string;
                /** @description The merchant's payout address on this chain, where transfers to `address` are swept. */
                payTo: string;
                /** @description EIP-681 URI of the exact transfer on this chain (`...@<chainId>/transfer?...`). */
                paymentUri: string;
            }[];
        };
        PaymentSessionInput: {
            id: string;
            /** @constant */
            object: "payment_session";
            /** @description Amount to pay, integer string in token base units. */
            amount: string;
            currency: string;
            /**
             * @description `open`: awaiting payment. `processing`: a relayed payment for it was accepted and is on its way to the chain. `completed`: the payment is confirmed on-chain (terminal). `expired`: expiresAt passed without a payment (terminal). `cancelled`: cancelled, e.g. by voiding its invoice (terminal). A failed relayed payment puts a processing session back to open (or expired when past expiresAt).
             * @enum {string}
             */
            status: "open" | "processing" | "completed" | "expired" | "cancelled";
            /** @description The address to pay on the session's chain `chainId`: the merchant's payout address there when the session was created. Another accepted chain may have its own (`deposit.networks[].payTo`). */
            payTo: string;
            /** @description The token contract (USDC of this mode) on `chainId`. */
            token: string;
            /** @description The first of `acceptedChainIds`: where `token` and `deposit.paymentUri` point. */
            chainId: number;
            /** @description The chains the session may be paid on (EIP-155 ids), in the order the hosted page offers them. */
            acceptedChainIds: number[];
            /** @description The chain of `transactionHash` (the relayed payment or the completing deposit); null until completed. */
            transactionChainId: number | null;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            expiresAt: string;
            successUrl: string | null;
            cancelUrl: string | null;
            /** @description The metadata given at creation. */
            metadata: {
                [key: string]: string;
            };
            /** @description The hosted checkout page of this session. */
            checkoutUrl: string;
            /** @description The invoice this session backs, if any. */
            invoiceId: string | null;
            /** @description The storefront product this session was bought for (the buy button of the public store page), if any; it stays set when the product is archived later. */
            productId: string | null;
            /** @description The product's name when it was bought (as the customer saw it on the store page). */
            productName: string | null;
            /** @description The paying wallet: the signer of the relayed payment once one was submitted, else the `from` of the transfers credited to the deposit address (null while none arrived, or when several wallets sent them). */
            payer: string | null;
            /** @description The customer of the paying wallet (`payer`), set when the session completes: found or created by wallet, never by email. Null before, and when several wallets paid it (docs/decisions.md, One-off payers as customers). */
            customerId: string | null;
            /** @description The email the payer gave on the hosted page (optional, unverified), if any. */
            customerEmail: string | null;
            /** @description The transaction that paid the session, once completed. */
            transactionHash: string | null;
            completedAt: string | null;
            /** @description Set when the session is an x402 payment (created by `POST /v1/x402/settle` of a seller using this facilitator); null otherwise. */
            x402: {
                /** @description The x402 scheme (`exact`). */
                scheme: string;
                /** @description CAIP-2 network, e.g. `eip155:8453`. */
                network: string;
                /** @description The buyer's wallet. */
                payer: string;
                /** @description The settlement transaction, once sent. */
                transaction: string | null;
                /** @description The paid resource as the x402 payment named it. */
                resource: {
                    url: string | null;
                    description: string | null;
                    mimeType: string | null;
                };
            } | null;
            /** @description Paying by transfer to a deposit address; null for sessions created before deposit addresses existed. */
            deposit: components["schemas"]["PaymentSessionDepositInput"] | null;
            /** @description What can still be refunded, in token base units: everything received for the session, each receipt once (a confirmed relayed payment, the credited transfers with any overpayment, whether or not the session then completed, expired or was cancelled, and late deposits; a completed session counts at least its amount) minus its pending, processing and succeeded refunds. The most POST /v1/refunds accepts for this session; "0" when nothing was received or all is refunded (docs/refunds.md, What is refundable). */
            amountRefundable: string;
            /** @description What its refunds take, in token base units: the sum of its refunds that are awaiting action, pending, processing or succeeded (failed and cancelled ones take nothing). Above "0" with `amountRefundable` "0": refunded in full; above "0" with something still refundable: partly refunded. */
            amountRefunded: string;
            /** @description The test clock whose time `expiresAt` follows (test mode); null: wall time. */
            testClock: string | null;
            /** @description Why the latest payment relayed for this session failed (its refusal code and reason), while the session is open again after it, like Stripe's `last_payment_error`. Null when the latest payment did not fail, none was relayed, or the session is no longer open. Every try, failed or not, is in `GET /v1/payment-sessions/{id}/transactions`. */
            lastPaymentError: {
                /** @description A refusal code (docs/events.md "Refusal codes", e.g. `token_paused`, `payer_blacklisted`), else the contract error name, `Reverted` or `NonceConsumed`. */
                code: string;
                /** @description The readable reason. */
                reason: string;
            } | null;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        CheckoutChainInput: {
            chainId: number;
            /** @description The chain's name for people ("Base", "Anvil (local chain 31337)"). */
            network: string;
            /** @description The session's token (USDC) on this chain. */
            token: string;
            /** @description A payment session's payout address on this chain: a wallet payment on this chain authorizes a transfer to it. Absent on a plan's enrolment offer, whose `terms.merchant` names the chain's payout. */
            payTo?: string;
            /** @description EIP-3085 `wallet_addEthereumChain` parameters from the chain's preset (its public RPC and explorer), for a wallet that does not know the chain; null for a chain without a preset (a local chain). */
            addChain: {
                /** @description 0x-prefixed hex. */
                chainId: string;
                chainName: string;
                nativeCurrency: {
                    name: string;
                    symbol: string;
                    decimals: number;
                };
                rpcUrls: string[];
                blockExplorerUrls: string[];
            } | null;
        };
        CheckoutSessionInput: {
            id: string;
            /** @constant */
            object: "checkout_session";
            amount: string;
            currency: string;
            token: string;
            chainId: number;
            /** @description The chains the customer may choose among, first the default. */
            acceptedChainIds: number[];
            /** @description The accepted chains as the page offers them (the order of `acceptedChainIds`): name, token and how a wallet adds it. */
            chains: components["schemas"]["CheckoutChainInput"][];
            payTo: string;
            /** @enum {string} */
            status: "open" | "processing" | "completed" | "expired" | "cancelled";
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            expiresAt: string;
            /** @description The merchant's business name (or account name) to show the customer. */
            merchantName: string;
            successUrl: string | null;
            cancelUrl: string | null;
            livemode: boolean;
            /** @description The name of the chain to pay on, for people ("Base", "Anvil (local chain 31337)"). */
            network: string;
            deposit: components["schemas"]["PaymentSessionDepositInput"] | null;
            /** @description The merchant's storefront name in this mode, if it has a storefront. */
            storeName: string | null;
            /** @description The storefront's logo URL (https), if any. */
            logoUrl: string | null;
            /** @description Where the customer can ask the merchant for help (the storefront's support email), if any. */
            supportEmail: string | null;
            /** @description The storefront product being bought, if any. */
            productName: string | null;
            /** @description The invoice this session pays: its number and line items. */
            invoice: {
                number: string;
                lineItems: {
                    description: string;
                    quantity: number;
                    unitAmount: string;
                }[];
            } | null;
            /** @description Why the latest payment posted for this session failed, while the session is open again after it: a page opened or reloaded while that payment was processing can still tell the payer why. Null when the latest payment did not fail, or the session is no longer open. */
            lastPaymentError: {
                /** @description A refusal code (docs/events.md "Refusal codes", e.g. `token_paused`, `payer_blacklisted`), else the contract error name, `Reverted` or `NonceConsumed`. */
                code: string;
                /** @description The readable reason. */
                reason: string;
            } | null;
        };
        PaymentSessionTransactionInput: {
            /** @constant */
            object: "payment_session_transaction";
            /**
             * @description `payment`: a relayed payment (the payer's signed transfer the relay sent, x402 settlements included). `deposit`: a transfer into the session's deposit address. `sweep`: the transfer forwarding a deposit to the payout address. `refund`: a refund of the session.
             * @enum {string}
             */
            kind: "payment" | "deposit" | "sweep" | "refund";
            /** @description The chain the transaction is on (EIP-155 id). */
            chainId: number;
            /** @description The object the transaction belongs to: the relay submission (`rls_...`), the deposit (`dep_...`, also for its sweep) or the refund (`re_...`). */
            sourceId: string;
            /**
             * @description `pending`: not sent yet. `submitted`: sent (or seen), waiting for inclusion or confirmations. `confirmed`: included with the required confirmations (final). `failed`: reverted, dropped or refused (see failureCode). `removed`: a reorg took the transfer off the chain. `cancelled`: a refund cancelled before it was sent.
             * @enum {string}
             */
            status: "pending" | "submitted" | "confirmed" | "failed" | "removed" | "cancelled";
            /** @description The transaction, once sent (null for one refused before sending). */
            transactionHash: string | null;
            /** @description The block holding it (decimal string), once known. */
            blockNumber: string | null;
            /** @description Blocks on top of and including the one holding it, at least: from the relay's tracking and the indexer's last checkpoint, so it can trail the chain head by the indexer's poll interval. Null when the block is not known. */
            confirmations: number | null;
            /** @description The confirmations this mode's chain needs before a transfer counts (finality). */
            requiredConfirmations: number;
            from: string | null;
            to: string | null;
            /** @description What it moves, in token base units. */
            amount: string | null;
            /** @description A deposit that arrived after the session had ended, or on a configured chain the session does not accept (not credited to it; refundable). False for other kinds. */
            late: boolean;
            /** @description The named refusal (e.g. `insufficient_funds`, `authorization_used`) when it failed. */
            failureCode: string | null;
            failureReason: string | null;
            /**
             * Format: date-time
             * @description When the service recorded it (the submission, the observed transfer, the refund request).
             */
            createdAt: string;
            /** @description When it reached the status confirmed, if it did. */
            confirmedAt: string | null;
        };
        PaymentSessionTransactionListInput: {
            /** @description Every transaction of the session, oldest first (one page: a session has few). */
            data: components["schemas"]["PaymentSessionTransactionInput"][];
        };
        PromotionCodeInput: {
            id: string;
            /** @constant */
            object: "promotion_code";
            code: string;
            /** @description The coupon id. */
            coupon: string;
            active: boolean;
            expiresAt: string | null;
            firstTimeTransaction: boolean;
            maxRedemptions: number | null;
            timesRedeemed: number;
            /** @description The merchant's key-value pairs. */
            metadata: {
                [key: string]: string;
            };
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            updatedAt: string;
        };
        TokenInput: {
            /** @constant */
            object: "token";
            /** @description Checksummed token address. */
            address: string;
            chainId: number;
            livemode: boolean;
            name: string;
            symbol: string;
            decimals: number;
            /** @description The EIP-712 domain to sign EIP-3009 and EIP-2612 messages with (from eip712Domain(), else name() and version() as on Circle USDC, else a known value for the chain); null when the token has no signing domain. */
            domain: {
                name: string;
                version: string;
                chainId: number;
                verifyingContract: string;
            } | null;
            /** @description Bitmap of supported standards: 1 = EIP-3009 (transfer/receiveWithAuthorization), 2 = EIP-2612 (permit), 4 = ERC-5267 (eip712Domain). Detected by probing the contract. */
            capabilities: number;
            /** @description The capability bits spelled out. */
            supports: {
                eip3009: boolean;
                eip2612: boolean;
                erc5267: boolean;
            };
        };
        PermitNonceInput: {
            /** @constant */
            object: "permit_nonce";
            token: string;
            owner: string;
            /** @description The owner's current EIP-2612 nonce (nonces(owner)) as an integer string: sign the next permit with it. */
            nonce: string;
        };
        RelaySubmissionInput: {
            /** @constant */
            object: "relay_submission";
            id: string;
            /** @description The Idempotency-Key the submission was made with; GET /v1/relay/submissions/{idempotencyKey} reads it. */
            idempotencyKey: string;
            /** @enum {string} */
            kind: "payment" | "subscription";
            livemode: boolean;
            chainId: number;
            /**
             * @description `pending`: accepted, not yet sent. `submitted`: sent, waiting for inclusion and confirmations. `confirmed`: included with the required confirmations. `failed`: reverted or refused on-chain; see failureReason. Terminal: confirmed, failed.
             * @enum {string}
             */
            status: "pending" | "submitted" | "confirmed" | "failed";
            /** @description EIP-712 digest of the signed authorization (payment) or enrolment (subscription); one submission per digest, ever. */
            authorizationDigest: string;
            /** @description Hash of the relayer transaction (the latest one when a stuck transaction was replaced with a higher fee). */
            transactionHash: string | null;
            /** @description Block that included the transaction, as an integer string. */
            blockNumber: string | null;
            /** @description Blocks on top of and including the one holding the transaction. */
            confirmations: number;
            requiredConfirmations: number;
            /** @description When failed: a refusal code (`insufficient_funds`, `insufficient_allowance`, `payer_blacklisted`, `merchant_blacklisted`, `account_blacklisted`, `token_paused`, `authorization_expired`, `authorization_not_yet_valid`, `authorization_used`, `signature_invalid`; docs/events.md "Refusal codes"), else the contract error name, `Reverted` or `NonceConsumed`. */
            failureCode: string | null;
            /** @description What went wrong, readable: the refusal in a sentence, or the decoded revert and its arguments. */
            failureReason: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            updatedAt: string;
        };
        CheckoutPaymentInput: {
            /** @constant */
            object: "checkout_payment";
            sessionId: string;
            /**
             * @description Status of the relay submission that carries the payment; poll GET /v1/checkout/sessions/{id} until the session is completed.
             * @enum {string}
             */
            submissionStatus: "pending" | "submitted" | "confirmed" | "failed";
            transactionHash: string | null;
            /** @description When failed: a refusal code (docs/events.md "Refusal codes", e.g. `payer_blacklisted`, `token_paused`, `insufficient_funds`), else the contract error name, `Reverted` or `NonceConsumed`. The hosted page shows the payer one sentence per refusal code. */
            failureCode: string | null;
            /** @description When failed: the relay's readable reason. */
            failureReason: string | null;
        };
        CheckoutCustomerEmailInput: {
            /** @constant */
            object: "checkout_customer_email";
            sessionId: string;
            email: string;
        };
        CheckoutEnrolmentOfferInput: {
            /** @constant */
            object: "checkout_enrolment_offer";
            planId: string;
            planName: string;
            merchantName: string;
            livemode: boolean;
            /** @description The chain these terms, the manager and its domain are on: the one asked for, else the plan's first. */
            chainId: number;
            /** @description Every chain the plan is offered on, the default first: the hosted page's network picker. GET again with `?chainId=` for another chain's offer. */
            chains: components["schemas"]["CheckoutChainInput"][];
            /** @description The SubscriptionManager the permit is granted to and the Enrolment is signed for. */
            subscriptionManager: string;
            /** @description The SubscriptionManager's EIP-712 domain (sign Enrolment with it). */
            managerDomain: {
                name: string;
                version: string;
                chainId: number;
                verifyingContract: string;
            };
            /** @description The Enrolment terms the subscriber signs; the enrol route accepts exactly these (trialEnd no later than offered). */
            terms: {
                token: string;
                merchant: string;
                operator: string;
                amount: string;
                /** @description Seconds: the plan interval on SubscriptionManagerV2 (months as the mean Gregorian month, 2,629,746 s; days and weeks exact). */
                period: string;
                /** @description 0: open-ended (plans have no end). */
                periods: number;
                /** @description Unix seconds; now + the plan's trial days, or 0 without a trial. */
                trialEnd: string;
                /** @description Seconds after a period's start during which it may be charged: the period plus the calendar's largest drift from it, rounded up to an hour. */
                chargeWindow: string;
            };
            /** @description The allowance the page asks the subscriber to permit: 12 periods of the plan amount (renewed from the emailed renewal link). */
            permitValue: string;
            /** @description The `promotionCode` asked about, applied to this plan; null without one. */
            discount: {
                /** @description The code as the merchant wrote it. */
                promotionCode: string;
                couponName: string | null;
                percentOff: number | null;
                amountOff: string | null;
                /** @description What each discounted period pulls, in base units (the terms keep the full amount, the cap). */
                discountedAmount: string;
                /** @description How many charged periods are discounted; null: every one. */
                periods: number | null;
            } | null;
        };
        CheckoutEnrolmentInput: {
            /** @constant */
            object: "checkout_enrolment";
            planId: string;
            nonce: string;
            /** @description The chain the enrolment was relayed on. */
            chainId: number;
            /** @enum {string} */
            submissionStatus: "pending" | "submitted" | "confirmed" | "failed";
            transactionHash: string | null;
            /** @description When failed: a refusal code (docs/events.md "Refusal codes", e.g. `payer_blacklisted`, `token_paused`, `insufficient_funds`), else the contract error name, `Reverted` or `NonceConsumed`. The hosted page shows the payer one sentence per refusal code. */
            failureCode: string | null;
            failureReason: string | null;
        };
        CheckoutRenewalOfferInput: {
            /** @constant */
            object: "checkout_renewal_offer";
            subscriptionId: string;
            /** @description The subscription's status (at_risk when a charge already failed for lack of allowance). */
            status: string;
            merchantName: string;
            planName: string;
            livemode: boolean;
            /** @description The subscription's chain: where it was enrolled, is charged, and where the permit goes. */
            chainId: number;
            /** @description EIP-3085 `wallet_addEthereumChain` parameters from the chain's preset (its public RPC and explorer), for a wallet that does not know the chain; null for a chain without a preset (a local chain). */
            addChain: {
                /** @description 0x-prefixed hex. */
                chainId: string;
                chainName: string;
                nativeCurrency: {
                    name: string;
                    symbol: string;
                    decimals: number;
                };
                rpcUrls: string[];
                blockExplorerUrls: string[];
            } | null;
            /** @description The token the permit is signed for. */
            token: string;
            /** @description The token's EIP-712 domain (sign the Permit with it). */
            tokenDomain: {
                name: string;
                version: string;
                chainId: number;
                verifyingContract: string;
            };
            /** @description The permit owner: the wallet that pays the subscription. */
            subscriber: string;
            /** @description The SubscriptionManager. */
            spender: string;
            /** @description One period of the subscription, in token base units. */
            amount: string;
            /** @description The allowance the SubscriptionManager has now. */
            allowance: string;
            /** @description Whole periods the current allowance pays. */
            periodsLeft: number;
            /** @description The subscriber's current permit nonce. */
            permitNonce: string;
            /** @description The allowance to permit: the current allowance plus 12 periods of the amount. */
            permitValue: string;
        };
        CheckoutRenewalInput: {
            /** @constant */
            object: "checkout_renewal";
            subscriptionId: string;
            permitNonce: string;
            /** @enum {string} */
            status: "pending" | "confirmed" | "failed";
            transactionHash: string | null;
            /** @description When failed and the token refused the permit: its refusal code (docs/events.md "Refusal codes", e.g. `token_paused`, `authorization_expired`). The hosted page shows the subscriber one sentence per code. */
            failureCode: string | null;
            failureReason: string | null;
        };
        /** @description What the approval page asks `subscriber` to sign: a new enrolment on the subscription's chain, starting at its next period, which replaces the current enrolment (then cancelled on chain). For an upgrade, `planId`, `planName` and `terms.amount` are the new plan's; for a wallet change, the plan stays and `terms.amount` is the current authorised amount. */
        CheckoutReauthorisationOfferInput: {
            /** @constant */
            object: "checkout_reauthorisation_offer";
            planId: string;
            planName: string;
            merchantName: string;
            livemode: boolean;
            /** @description The chain these terms, the manager and its domain are on: the one asked for, else the plan's first. */
            chainId: number;
            /** @description Every chain the plan is offered on, the default first: the hosted page's network picker. GET again with `?chainId=` for another chain's offer. */
            chains: components["schemas"]["CheckoutChainInput"][];
            /** @description The SubscriptionManager the permit is granted to and the Enrolment is signed for. */
            subscriptionManager: string;
            /** @description The SubscriptionManager's EIP-712 domain (sign Enrolment with it). */
            managerDomain: {
                name: string;
                version: string;
                chainId: number;
                verifyingContract: string;
            };
            /** @description The Enrolment terms the subscriber signs; the enrol route accepts exactly these (trialEnd no later than offered). */
            terms: {
                token: string;
                merchant: string;
                operator: string;
                amount: string;
                /** @description Seconds: the plan interval on SubscriptionManagerV2 (months as the mean Gregorian month, 2,629,746 s; days and weeks exact). */
                period: string;
                /** @description 0: open-ended (plans have no end). */
                periods: number;
                /** @description Unix seconds; now + the plan's trial days, or 0 without a trial. */
                trialEnd: string;
                /** @description Seconds after a period's start during which it may be charged: the period plus the calendar's largest drift from it, rounded up to an hour. */
                chargeWindow: string;
            };
            /** @description The allowance the page asks the subscriber to permit: 12 periods of the plan amount (renewed from the emailed renewal link). */
            permitValue: string;
            /** @description The `promotionCode` asked about, applied to this plan; null without one. */
            discount: {
                /** @description The code as the merchant wrote it. */
                promotionCode: string;
                couponName: string | null;
                percentOff: number | null;
                amountOff: string | null;
                /** @description What each discounted period pulls, in base units (the terms keep the full amount, the cap). */
                discountedAmount: string;
                /** @description How many charged periods are discounted; null: every one. */
                periods: number | null;
            } | null;
            /**
             * @description `plan_change`: an upgrade above the authorised amount; `wallet_change`: the subscription moves to another wallet.
             * @enum {string}
             */
            kind: "plan_change" | "wallet_change";
            /** @description The upgrade’s plan change (null for a wallet change). */
            planChangeId: string | null;
            /** @description The wallet change (null for an upgrade). */
            walletChangeId: string | null;
            subscriptionId: string;
            /** @description The plan the subscription is on now. */
            fromPlanName: string;
            /** @description What a period charges now (before a discount), base units. */
            fromAmount: string;
            /** @description The wallet the subscription charges now. */
            currentSubscriber: string;
            /** @description The only wallet whose signature is accepted: the subscribing wallet for an upgrade, the wallet the customer named for a wallet change. */
            subscriber: string;
            /**
             * Format: date-time
             * @description When the new amount is first charged: the start of the subscription’s next period, the new enrolment’s period 0 (its trialEnd). The period in progress stays as paid; nothing is prorated.
             */
            firstChargeAt: string;
        };
        CheckoutReauthorisationInput: {
            /** @constant */
            object: "checkout_reauthorisation";
            /** @description The change approved: its plan change id, or its wallet change id. */
            id: string;
            planChangeId: string | null;
            /** @description The enrolment nonce signed. */
            nonce: string;
            chainId: number;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            firstChargeAt: string;
            /** @enum {string} */
            submissionStatus: "pending" | "submitted" | "confirmed" | "failed";
            transactionHash: string | null;
            /** @description When failed: a refusal code (docs/events.md "Refusal codes", e.g. `payer_blacklisted`, `token_paused`, `insufficient_funds`), else the contract error name, `Reverted` or `NonceConsumed`. The hosted page shows the payer one sentence per refusal code. */
            failureCode: string | null;
            failureReason: string | null;
        };
        /**
         * @example {
         *       "object": "checkout_reauthorisation_status",
         *       "id": "swc_01JD8ZX0000000000000000001",
         *       "kind": "wallet_change",
         *       "subscriptionId": "sub_01JD8ZX0000000000000000001",
         *       "status": "submitted",
         *       "subscriber": "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
         *       "firstChargeAt": "2027-01-10T14:02:00.000Z",
         *       "appliedAt": null
         *     }
         */
        CheckoutReauthorisationStatusInput: {
            /** @constant */
            object: "checkout_reauthorisation_status";
            /** @description The plan change id, or the wallet change id. */
            id: string;
            /**
             * @description `plan_change`: an upgrade above the authorised amount; `wallet_change`: the subscription moves to another wallet.
             * @enum {string}
             */
            kind: "plan_change" | "wallet_change";
            subscriptionId: string;
            /**
             * @description `pending`: nothing signed yet (or a signature that could not be applied: sign again); `submitted`: the signed enrolment was relayed and is bound to `firstChargeAt`, waiting to be indexed; `applied`: the subscription charges through it; `cancelled`: the change was withdrawn (an enrolment signed for it is cancelled on chain when indexed).
             * @enum {string}
             */
            status: "pending" | "submitted" | "applied" | "cancelled";
            /** @description The wallet that signs (or signed) the replacement enrolment. */
            subscriber: string;
            /** @description The period the signed enrolment is bound to (null before a signature). */
            firstChargeAt: string | null;
            appliedAt: string | null;
        };
        MeteredPriceInput: {
            /** @constant */
            model: "per_unit";
            /** @description The meter whose usage this price bills (same merchant and mode). */
            meterId: string;
            /** @description Base units per unit, a decimal string of at most 12 decimals: "2000" is 0.002 USDC a unit, "0.5" half a base unit (lines round once, half up). */
            unitAmount: string;
        } | {
            /** @constant */
            model: "package";
            /** @description The meter whose usage this price bills (same merchant and mode). */
            meterId: string;
            /** @description Units per package; a partial package is billed as a whole one (rounded up). */
            packageSize: string;
            /** @description Base units per package. */
            packageAmount: string;
        } | {
            /** @constant */
            model: "graduated";
            /** @description The meter whose usage this price bills (same merchant and mode). */
            meterId: string;
            tiers: {
                upTo: string | null;
                /** @description Base units per unit, a decimal string of at most 12 decimals: "2000" is 0.002 USDC a unit, "0.5" half a base unit (lines round once, half up). */
                unitAmount: string;
                /**
                 * @description Base units added once when the tier is reached. Default "0".
                 * @default 0
                 */
                flatAmount: string;
            }[];
        } | {
            /** @constant */
            model: "volume";
            /** @description The meter whose usage this price bills (same merchant and mode). */
            meterId: string;
            tiers: {
                upTo: string | null;
                /** @description Base units per unit, a decimal string of at most 12 decimals: "2000" is 0.002 USDC a unit, "0.5" half a base unit (lines round once, half up). */
                unitAmount: string;
                /**
                 * @description Base units added once when the tier is reached. Default "0".
                 * @default 0
                 */
                flatAmount: string;
            }[];
        };
        ChainPayoutInput: {
            /** @constant */
            object: "chain_payout";
            /** @description The mode the chain is configured for. */
            livemode: boolean;
            /** @description The chain (EIP-155 id): one of the configured chains of the mode. */
            chainId: number;
            /** @description The chain's name for people ("Base", "Anvil (local chain 31337)"). */
            network: string;
            /** @description Where the merchant is paid on this chain now (EIP-55): relayed payments, deposit sweeps, x402 settlements, subscription terms and the refund allowance on this chain. The address set for this chain, else the account's `payoutAddress`; null: neither is set. */
            payoutAddress: string | null;
            /**
             * @description `chain`: an address set for this chain (PUT /v1/merchants/me/payout-addresses/{chainId}); `account`: the account's payout address.
             * @enum {string}
             */
            source: "chain" | "account";
        };
        MerchantInput: {
            /** @description Merchant id (prefix `mer_`). */
            id: string;
            /** @constant */
            object: "merchant";
            /** @description Display name: the business name once onboarded, else the name claim of the first login. */
            name: string;
            /** @description Owner email that receives account notices (leaked keys, verification). */
            email: string | null;
            /** @description True once the owner confirmed the email verification code. */
            emailVerified: boolean;
            /** @description True once TOTP enrolment was confirmed with a valid code. */
            twoFactorEnabled: boolean;
            /** @description The self-attested business onboarding form; null until submitted. */
            business: {
                name: string;
                /** @enum {string} */
                sector: "saas" | "ecommerce" | "marketplace" | "digital_goods" | "gaming" | "financial_services" | "education" | "nonprofit" | "professional_services" | "media" | "travel" | "other";
                /** @description ISO 3166-1 alpha-2 code. */
                country: string;
                /** @description EVM address receiving payouts, EIP-55 checksummed. */
                payoutAddress: string;
            } | null;
            /** @description The address new checkouts pay to now (EIP-55): the business profile sets it; a development seed may set it before onboarding. null: no payments can be taken yet. */
            payoutAddress: string | null;
            /** @description The effective payout address on each configured chain of both modes (test first): the address set for the chain, else `payoutAddress`. Set with PUT /v1/merchants/me/payout-addresses/{chainId}. */
            payoutAddresses: components["schemas"]["ChainPayoutInput"][];
            /** @description True when all three live-mode checks pass; live keys can then be issued. */
            liveModeEligible: boolean;
            /** @description The pinned API version used when a request sends no Service-Version header. */
            apiVersion: string;
            /** @description Requests per minute allowed per API key (Starter 10,000; Enterprise custom). */
            rateLimitPerMinute: number;
            /** @description Origins whose web pages may call the API with publishable keys (CORS); `["*"]` allows any origin, `[]` none. */
            allowedOrigins: string[];
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        LiveModeIneligibilityReasonInput: {
            /**
             * @description Which check is unmet.
             * @enum {string}
             */
            check: "email_verification" | "two_factor" | "business_onboarding";
            /**
             * @description Machine-readable reason.
             * @enum {string}
             */
            code: "email_missing" | "email_not_verified" | "two_factor_not_enabled" | "business_profile_missing";
            /** @description Human-readable explanation. */
            message: string;
            /** @description The endpoint that completes the check, e.g. `POST /v1/merchants/me/email-verification`. */
            action: string;
        };
        LiveModeEligibilityInput: {
            /** @constant */
            object: "live_mode_eligibility";
            /** @description True when every check passed: live keys may be issued now. */
            eligible: boolean;
            /** @description Each check with whether it passed and when. */
            checks: {
                emailVerification: {
                    passed: boolean;
                    completedAt: string | null;
                };
                twoFactor: {
                    passed: boolean;
                    completedAt: string | null;
                };
                businessOnboarding: {
                    passed: boolean;
                    completedAt: string | null;
                };
            };
            /** @description One entry per unmet check; empty when eligible. */
            reasons: components["schemas"]["LiveModeIneligibilityReasonInput"][];
        };
        AcceptedChainsInput: {
            /** @constant */
            object: "accepted_chains";
            /** @description The mode this setting is of: each mode has its own chains and its own setting. */
            livemode: boolean;
            /** @description The chains a new payment session accepts when its request names none (`acceptedChainIds` of POST /v1/payment-sessions), in the mode's configuration order. null: every chain of the mode, including chains configured later. */
            acceptedChainIds: number[] | null;
            /** @description Every chain configured for this mode, in configuration order (the first is a session's default). */
            chains: {
                chainId: number;
                /** @description The chain's name for people ("Base", "Anvil (local chain 31337)"). */
                network: string;
                /** @description Whether a new session accepts it by default. */
                accepted: boolean;
            }[];
        };
        /** @description Which receipts are emailed to the customer, when the customer's email is known. Defaults: payment and refund on, subscription charge and invoice off. */
        ReceiptSettingsInput: {
            /** @constant */
            object: "receipt_settings";
            /** @description The mode these switches are of: each mode has its own. */
            livemode: boolean;
            /** @description Email a receipt when a payment session is paid (not one backing an invoice: `invoice` covers it). */
            payment: boolean;
            /** @description Email a receipt for each succeeded subscription charge, with the discount line where there is one. */
            subscriptionCharge: boolean;
            /** @description Email a receipt when a refund succeeded on chain. */
            refund: boolean;
            /** @description Email a receipt when an invoice is paid. */
            invoice: boolean;
        };
        LeakReportResultInput: {
            /** @description SHA-256 (hex) of the reported token; the token itself is never echoed. */
            token_hash: string;
            token_type: string;
            /**
             * @description `true_positive` when it is one of our secret keys.
             * @enum {string}
             */
            label: "true_positive" | "false_positive";
            /**
             * @description What we did: revoked and replaced the key (owner emailed), nothing because it was revoked before, or nothing.
             * @enum {string}
             */
            action: "revoked_and_replaced" | "already_revoked" | "none";
        }[];
        WebhookEndpointInput: {
            id: string;
            /** @constant */
            object: "webhook_endpoint";
            url: string;
            events: string[];
            /** @enum {string} */
            mode: "test" | "live";
            /** @enum {string} */
            status: "active" | "disabled";
            /** @description Why the endpoint is disabled: `manual` (POST .../disable), `too_many_failures` (5 permanent failures in 24 hours) or `expired` (a listener whose `npm run listen` session ended more than an hour ago). */
            disabledReason: ("manual" | "too_many_failures" | "expired") | null;
            disabledAt: string | null;
            /** @description The leading characters of the current signing secret (`whsec_` and six more). */
            signingSecretPrefix: string;
            /** @description After a rotation, the previous secret keeps signing beside the new one until this time. */
            previousSecretExpiresAt: string | null;
            description: string;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /**
             * @description `url`: deliveries are POSTed to `url`. `listener`: a test-mode `npm run listen` session receives them and forwards them on the developer's machine; `url` then reads `listener:<forward target>` and is never called by the service.
             * @enum {string}
             */
            kind: "url" | "listener";
            /** @description Listeners only: nothing is delivered after this time. It moves forward while a session is connected and is one hour after the last session closed. */
            expiresAt: string | null;
        };
        WebhookEndpointWithSecretInput: {
            endpoint: components["schemas"]["WebhookEndpointInput"];
            /** @description The `whsec_...` signing secret; returned only here. */
            signingSecret: string;
        };
        WebhookDeliveryInput: {
            id: string;
            /** @constant */
            object: "webhook_delivery";
            endpointId: string;
            /** @description Also the `webhook-id` header: the same on every attempt and replay, so receivers can dedupe on it. */
            eventId: string;
            eventType: string;
            /**
             * @description `sending` (the request is out, no answer recorded yet), `succeeded` (2xx), `failed` (another attempt follows at nextRetryAt unless the endpoint is disabled), `permanently_failed` (no more attempts), `interrupted` (the sender stopped before the answer was recorded, e.g. a crash; the same attempt was sent again and has its own record: the receiver may have got it twice, same webhook-id).
             * @enum {string}
             */
            status: "sending" | "interrupted" | "succeeded" | "failed" | "permanently_failed";
            /** @description 1 for the first attempt of a sequence. An attempt sent again after an interruption has a record per send. */
            attempt: number;
            /** @description 0 for the original attempt sequence, N for the Nth replay. */
            replay: number;
            /** @description The HTTP status returned, or null when no response arrived. */
            responseStatus: number | null;
            /** @description The first 1024 bytes of the response body. */
            responseBodyExcerpt: string | null;
            /** @description Why no usable response arrived (timeout, connection, refused address). */
            error: string | null;
            durationMs: number;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            attemptedAt: string;
            nextRetryAt: string | null;
            livemode: boolean;
        };
        WebhookReplayInput: {
            /** @constant */
            object: "webhook_replay";
            /** @description The delivery record that was replayed. */
            deliveryId: string;
            endpointId: string;
            eventId: string;
            /** @description The replay number; its attempts carry it in `replay`. */
            replay: number;
            /** @constant */
            status: "queued";
        };
        WebhookTestEventInput: {
            /** @constant */
            object: "webhook_test_event";
            endpointId: string;
            /** @description The recorded test event; also the `webhook-id` header. */
            eventId: string;
            /** @enum {string} */
            eventType: "webhook_endpoint.test" | "invoice.created" | "invoice.sent" | "invoice.paid" | "invoice.overdue" | "invoice.updated" | "subscription.created" | "subscription.charged" | "subscription.charge_failed" | "subscription.cancelled" | "subscription.lapsed" | "subscription.updated" | "subscription.trial_will_end" | "subscription.usage_over_cap" | "subscription.final_usage_invoiced" | "subscription.usage_threshold_reached" | "agent.action_executed" | "agent.job_proposed" | "agent.job_completed" | "agent.job_disputed" | "agent.job_failed" | "payment.completed" | "payment.failed" | "payment.partially_paid" | "payment.overpaid" | "payment.late_deposit" | "payment.deposit_reversed" | "payment.deposit_sweep_blocked" | "refund.created" | "refund.succeeded" | "refund.failed" | "refund.updated" | "subscription_plan.created" | "subscription_plan.updated" | "subscription_plan.archived" | "storefront.updated" | "product.created" | "product.updated" | "product.archived" | "coupon.created" | "coupon.updated" | "coupon.deleted" | "promotion_code.created" | "promotion_code.updated" | "customer.discount.created" | "customer.discount.deleted" | "billing_portal.session.created" | "customer.updated";
            /** @description The first attempt, when it was recorded within 15 seconds; otherwise null, and the attempts appear in GET /v1/webhook-deliveries?endpointId=... as they happen. */
            delivery: components["schemas"]["WebhookDeliveryInput"] | null;
        };
        WebhookListenerInput: {
            /** @constant */
            object: "webhook_listener";
            endpoint: components["schemas"]["WebhookEndpointInput"];
            /** @description The `whsec_...` secret deliveries to this listener are signed with; returned only here. */
            signingSecret: string;
            /** @description GET this path (Accept: text/event-stream) to receive the deliveries. */
            streamPath: string;
            /** @description The listener expires this long after its last stream closed. */
            expiresAfterCloseSeconds: number;
        };
        WebhookListenerAnswerInput: {
            /** @constant */
            object: "webhook_listener_answer";
            requestId: string;
            /** @description False when the attempt had stopped waiting (too late) or another session answered first. */
            recorded: boolean;
        };
        CustomerInput: {
            id: string;
            /** @constant */
            object: "customer";
            /** @description The customer's wallet (lower-case hex); one customer per wallet, merchant and mode. */
            walletAddress: string;
            /** @description The first email the customer left at checkout (enrolment or payment page), when they left one; unverified. */
            email: string | null;
            /**
             * Format: date-time
             * @description When the wallet was first seen paying this merchant in this mode (an enrolment or a completed payment).
             */
            firstSeenAt: string;
            /** @description Subscriptions of this customer, in any status. */
            subscriptionCount: number;
            /** @description Subscriptions not ended: trialing, active, at_risk or paused. */
            activeSubscriptionCount: number;
            /** @description When the customer's newest subscription was created. */
            lastSubscribedAt: string | null;
            /** @description Periodic charges that succeeded, over all of the customer's subscriptions. */
            succeededChargeCount: number;
            /** @description One-off payments (payment sessions) the wallet paid, completed; list them with GET /v1/payment-sessions?customerId=. */
            completedPaymentCount: number;
            /** @description The merchant's key-value pairs. */
            metadata: {
                [key: string]: string;
            };
            livemode: boolean;
        };
        EventInput: {
            /** @description Also the `webhook-id` header of its deliveries. */
            id: string;
            /** @constant */
            object: "event";
            /** @description The event kind (see the `events` of a webhook endpoint), or `webhook_endpoint.test`. */
            type: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            created: string;
            livemode: boolean;
            /** @description Exactly the `data` of the webhook payload; `data.object` is the object the event is about. */
            data: {
                [key: string]: unknown;
            };
            /** @description The id of `data.object`; null for a test event, which is about no real object. */
            objectId: string | null;
        };
        EventDeliveryInput: {
            id: string;
            /** @constant */
            object: "webhook_delivery";
            endpointId: string;
            /** @description The URL of the endpoint when the attempt was read (`listener:...` for `npm run listen`). */
            endpointUrl: string;
            /** @enum {string} */
            status: "sending" | "interrupted" | "succeeded" | "failed" | "permanently_failed";
            attempt: number;
            /** @description 0 for the original attempt sequence, N for the Nth replay. */
            replay: number;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            attemptedAt: string;
            durationMs: number;
            nextRetryAt: string | null;
            responseStatus: number | null;
            /** @description The exact JSON body signed and sent (the first 65536 characters). */
            requestBody: string;
            /** @description The first 1024 bytes of the response body. */
            responseBodyExcerpt: string | null;
            error: string | null;
        };
        EventWithDeliveriesInput: {
            /** @description Also the `webhook-id` header of its deliveries. */
            id: string;
            /** @constant */
            object: "event";
            /** @description The event kind (see the `events` of a webhook endpoint), or `webhook_endpoint.test`. */
            type: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            created: string;
            livemode: boolean;
            /** @description Exactly the `data` of the webhook payload; `data.object` is the object the event is about. */
            data: {
                [key: string]: unknown;
            };
            /** @description The id of `data.object`; null for a test event, which is about no real object. */
            objectId: string | null;
            /** @description Every delivery attempt of this event to any endpoint, oldest first (at most 100: the newest ones). */
            deliveries: components["schemas"]["EventDeliveryInput"][];
        };
        EventListInput: {
            data: components["schemas"]["EventInput"][];
            /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
            nextCursor: string;
            /** @description True when another page follows; `nextCursor` is then non-empty. */
            hasMore: boolean;
        };
        X402PaymentRequirementsInput: {
            /** @description Payment scheme; this facilitator settles `exact`. */
            scheme: string;
            /** @description CAIP-2 network, e.g. `eip155:8453`; GET /v1/x402/supported lists the ones of your mode. */
            network: string;
            /** @description Amount in token base units (USDC: 6 decimals), integer string. */
            amount: string;
            /** @description The token's address: the mode's USDC. */
            asset: string;
            /** @description The recipient: the merchant's payout address, or the deposit address of one of its open, unpaid payment sessions in the key's mode (the payment is then that session's deposit, for exactly its amount). */
            payTo: string;
            maxTimeoutSeconds: number;
            /** @description Scheme data; for `exact` on EVM the token's EIP-712 `name` and `version`. */
            extra?: {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        X402PaymentPayloadInput: {
            x402Version: number;
            resource?: ({
                /** @description URL of the paid resource. */
                url: string;
                description?: string;
                mimeType?: string;
            } & {
                [key: string]: unknown;
            }) | null;
            accepted: components["schemas"]["X402PaymentRequirementsInput"];
            /** @description Scheme data; for `exact` on EVM `{ signature, authorization: { from, to, value, validAfter, validBefore, nonce } }` (EIP-3009). */
            payload: {
                [key: string]: unknown;
            };
            extensions?: {
                [key: string]: unknown;
            } | null;
        } & {
            [key: string]: unknown;
        };
        X402FacilitatorRequestInput: {
            /** @description 2. */
            x402Version: number;
            /** @description The PAYMENT-SIGNATURE header of the buyer, decoded. */
            paymentPayload: components["schemas"]["X402PaymentPayloadInput"];
            /** @description What the seller requires (the entry of PAYMENT-REQUIRED the payment answers). */
            paymentRequirements: components["schemas"]["X402PaymentRequirementsInput"];
        } & {
            [key: string]: unknown;
        };
        X402VerifyResponseInput: {
            isValid: boolean;
            /** @description Why not, as the x402 reference facilitator names it (e.g. `invalid_exact_evm_signature`); absent when valid. */
            invalidReason?: string;
            /** @description The same in words, for a person. */
            invalidMessage?: string;
            /** @description The payer's wallet (authorization.from). */
            payer?: string;
        };
        X402SettleResponseInput: {
            success: boolean;
            /** @description Why not; `settlement_pending` with a `transaction` means it is on its way: settle again with the same payment to read the outcome. */
            errorReason?: string;
            errorMessage?: string;
            payer?: string;
            /** @description The transaction hash; empty when nothing was sent. */
            transaction: string;
            /** @description CAIP-2 network of the transaction. */
            network: string;
            /** @description The amount settled, in base units. */
            amount?: string;
        };
        X402SupportedResponseInput: {
            kinds: {
                x402Version: number;
                scheme: string;
                network: string;
                extra?: {
                    [key: string]: unknown;
                };
            }[];
            extensions: string[];
            /** @description The addresses that send settlements, per CAIP-2 family. */
            signers: {
                [key: string]: string[];
            };
        };
        SubscriptionPlanInput: {
            id: string;
            /** @constant */
            object: "subscription_plan";
            name: string;
            amount: string;
            currency: string;
            /** @enum {string} */
            interval: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
            intervalCount: number;
            trialPeriodDays: number;
            /**
             * @description When the trial ends and the first charge is refused for funds or allowance: `dunning` retries within the merchant's grace window (`at_risk`, then `lapsed`), `cancel` cancels the subscription at once (on chain too; `subscription.cancelled`, `cancelledBy: system`), `pause` pauses it (`paused`; resuming charges the next period that comes due). A charge refused for another cause (a blacklisted address, a paused token) follows its usual rule.
             * @enum {string}
             */
            trialEndBehavior: "dunning" | "cancel" | "pause";
            /** @description The chains the plan is offered on, first the default; null: every chain of the mode. */
            chainIds: number[] | null;
            /** @description Usage prices billed in arrears at each period start (docs/metered-billing.md); null: a fixed plan. */
            meteredPrices: components["schemas"]["MeteredPriceInput"][] | null;
            /** @description Metered plans: the most pulled per period, authorised on chain at enrolment (the enrolment amount); null: a fixed plan. */
            usageCap: string | null;
            /** @description Metered plans: how long after a period's start its close waits for late usage events; null: a fixed plan. */
            usageGracePeriodSeconds: number | null;
            /** @description Metered plans: the unbilled usage (base units) that is invoiced early, mid-period; null: none (or a fixed plan). */
            usageThreshold: string | null;
            /** @description An archived plan takes no new enrolments; subscriptions already on it keep running. */
            archived: boolean;
            archivedAt: string | null;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            updatedAt: string;
        };
        CheckoutPlanInput: {
            id: string;
            name: string;
            amount: string;
            currency: string;
            /** @enum {string} */
            interval: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
            intervalCount: number;
            trialPeriodDays: number;
            /** @description The chains the plan is offered on, first the default; null: every chain of the mode. */
            chainIds: number[] | null;
            /** @description Usage prices billed in arrears at each period start (docs/metered-billing.md); null: a fixed plan. */
            meteredPrices: components["schemas"]["MeteredPriceInput"][] | null;
            /** @description Metered plans: the most pulled per period, authorised on chain at enrolment (the enrolment amount); null: a fixed plan. */
            usageCap: string | null;
            livemode: boolean;
        };
        CouponInput: {
            id: string;
            /** @constant */
            object: "coupon";
            name: string | null;
            /** @description Percent off (at most two decimals); null for an amount-off coupon. */
            percentOff: number | null;
            /** @description USDC base units off each discounted charge; null for a percent-off coupon. */
            amountOff: string | null;
            currency: string;
            /** @enum {string} */
            duration: "once" | "repeating" | "forever";
            durationInPeriods: number | null;
            maxRedemptions: number | null;
            /** @description Times applied (directly or through its promotion codes). */
            timesRedeemed: number;
            redeemBy: string | null;
            appliesTo: {
                planIds: string[];
            } | null;
            /** @description Whether it can still be applied (not past redeemBy, not used up). */
            valid: boolean;
            /** @description The merchant's key-value pairs. */
            metadata: {
                [key: string]: string;
            };
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            updatedAt: string;
        };
        DeletedCouponInput: {
            id: string;
            /** @constant */
            object: "coupon";
            /** @constant */
            deleted: true;
        };
        BillingMeterInput: {
            id: string;
            /** @constant */
            object: "billing.meter";
            displayName: string;
            eventName: string;
            /** @enum {string} */
            aggregation: "sum" | "count" | "max" | "last" | "unique_count";
            /** @description Null for a `count` meter. */
            valueKey: string | null;
            customerMapping: {
                /** @enum {string} */
                type: "by_id" | "by_wallet";
                eventPayloadKey: string;
            };
            /**
             * @description An inactive meter takes no events; the events it has keep counting in summaries.
             * @enum {string}
             */
            status: "active" | "inactive";
            deactivatedAt: string | null;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            updatedAt: string;
        };
        BillingMeterEventInput: {
            /** @constant */
            object: "billing.meter_event";
            identifier: string;
            eventName: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            timestamp: string;
            payload: {
                [key: string]: string;
            };
            /** @description True when an event with this identifier had been accepted already: this one was ignored. */
            duplicate: boolean;
            livemode: boolean;
        };
        BillingMeterEventBatchResultInput: {
            identifier: string;
            /**
             * @description `duplicate`: the identifier was accepted before, this event was ignored; `refused`: see `error`, nothing stored.
             * @enum {string}
             */
            status: "accepted" | "duplicate" | "refused";
            /** @description Why a refused event was refused; `param` is relative to the event (e.g. `timestamp`). */
            error?: {
                /** @constant */
                code: "invalid_request";
                message: string;
                param: string;
            };
        };
        BillingMeterEventBatchInput: {
            /** @constant */
            object: "billing.meter_event_batch";
            accepted: number;
            duplicates: number;
            refused: number;
            /** @description One result per event, in the order sent. */
            data: components["schemas"]["BillingMeterEventBatchResultInput"][];
        };
        BillingMeterEventCancellationInput: {
            /** @constant */
            object: "billing.meter_event_cancellation";
            identifier: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            cancelledAt: string;
        };
        BillingMeterEventSummaryInput: {
            /** @constant */
            object: "billing.meter_event_summary";
            meterId: string;
            customerId: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            startTime: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            endTime: string;
            /** @description The aggregation over the window, as exact decimal text (no trailing zeros). */
            aggregatedValue: string;
        };
        DiscountInput: {
            /** @description The discount id (prefix `di_`). */
            id: string;
            /** @constant */
            object: "discount";
            /** @description The coupon's terms the discount runs on. */
            coupon: {
                id: string;
                name: string | null;
                percentOff: number | null;
                amountOff: string | null;
                /** @enum {string} */
                duration: "once" | "repeating" | "forever";
                durationInPeriods: number | null;
            };
            /** @description The promotion code id it was redeemed through, if any. */
            promotionCode: string | null;
            /**
             * Format: date-time
             * @description When it was applied (the test clock’s time on a clock).
             */
            start: string;
            /** @description Calendar start of the first period charged in full, if no period is skipped (a paused period is not charged and does not count); null for `forever`. */
            end: string | null;
            /** @description Charged periods still discounted; null for `forever`. The discount ends after the last one. */
            periodsRemaining: number | null;
        };
        SubscriptionPlanChangeInput: {
            /** @description The plan change id (prefix `spc_`). */
            id: string;
            /** @constant */
            object: "subscription_plan_change";
            fromPlanId: string;
            /** @description The plan the subscription moves to. */
            planId: string;
            /** @description What a period charged before the change (before a discount), base units. */
            fromAmount: string;
            /** @description The new plan's amount per period, base units. */
            amount: string;
            /**
             * @description `applied`: in effect (an upgrade within the authorised amount, or any change in a trial, at once; a downgrade at its period start); `scheduled`: a downgrade waiting for the end of the period; `requires_customer_action`: more than the customer authorised on chain per period, nothing changes or is charged until they authorise it; `cancelled`.
             * @enum {string}
             */
            status: "scheduled" | "requires_customer_action" | "applied" | "cancelled";
            /** @enum {string} */
            prorationBehavior: "create_prorations" | "none";
            /** @description What the upgrade adds to the next period’s charge for the rest of the period in progress: floor((amount - fromAmount) * remainingSeconds / periodSeconds), limited so that charge stays within the authorised amount; "0" for `none`, a downgrade or a change in a trial. */
            prorationAmount: string;
            /** @description When the new plan takes effect; null while the customer’s authorisation is awaited. */
            effectiveAt: string | null;
            /** @description For a change that `requires_customer_action`: the hosted page where the subscribing wallet signs a new enrolment for `amount` per period, which replaces the current one from the next period. Unguessable, good for this change only, until it is applied or cancelled; null otherwise. */
            hostedUrl: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        CancellationDetailsInput: {
            /**
             * @description `merchant`: through the API or dashboard; `subscriber`: the customer.
             * @enum {string}
             */
            requestedBy: "merchant" | "subscriber";
            /** @description Free text given with the request. */
            reason: string | null;
            feedback: ("customer_service" | "low_quality" | "missing_features" | "other" | "switched_service" | "too_complex" | "too_expensive" | "unused") | null;
        };
        SubscriptionInput: {
            id: string;
            /** @constant */
            object: "subscription";
            planId: string;
            /** @enum {string} */
            status: "trialing" | "active" | "at_risk" | "paused" | "cancelled" | "lapsed" | "completed";
            /** @description The customer who enrolled. */
            customer: {
                /** @description Customer id (prefix `cus_`): one per wallet address, merchant and mode. */
                id: string;
                /** @description The subscriber wallet (lower-case hex). */
                walletAddress: string;
                email: string | null;
            };
            /** @description Maximum charged per period, integer string in the token's base units. */
            amount: string;
            /** @description What each period charges before a discount: the current plan's amount, at most `amount` (a plan change can lower it, or raise it up to `amount`). */
            planAmount: string;
            currency: string;
            /** @description Where the authorisation lives on-chain. */
            onChain: {
                chainId: string;
                /** @description The SubscriptionManager contract. */
                contractAddress: string;
                /** @description The id the contract assigned (decimal string). */
                subscriptionId: string;
                tokenAddress: string;
                /** @description The on-chain minimum period length the customer authorised. */
                periodSeconds: string;
                createdTxHash: string | null;
            };
            /** @description Number of authorised periods; 0 means open-ended. */
            periods: number;
            /**
             * Format: date-time
             * @description Start of period 0 (the end of the trial, if any).
             */
            firstPeriodStart: string;
            trialEnd: string | null;
            /** @description The last period charged (0-based), null before the first charge. */
            currentPeriodIndex: number | null;
            /** @description When the next period is due; null once terminal. */
            nextChargeAt: string | null;
            /** @description When the current failed charge first failed; null unless at_risk. */
            atRiskSince: string | null;
            cancelReason: string | null;
            cancelledBy: ("merchant" | "subscriber" | "operator" | "system") | null;
            cancelledAt: string | null;
            /** @description When the on-chain cancel was confirmed. */
            onChainCancelledAt: string | null;
            lapsedAt: string | null;
            completedAt: string | null;
            /** @description A cancel is scheduled: when the next period comes due (`cancelAt`) the subscription is cancelled instead of charged. */
            cancelAtPeriodEnd: boolean;
            /** @description When the scheduled cancel happens (the start of the next period); null: none scheduled. */
            cancelAt: string | null;
            /** @description Who asked to cancel (now or at the period end) and why; null: nobody did (or a scheduled cancel was undone). */
            cancellationDetails: components["schemas"]["CancellationDetailsInput"] | null;
            /** @description The coupon applied to the charges (each pulls the discounted amount, never more than `amount`); null: none. */
            discount: components["schemas"]["DiscountInput"] | null;
            /** @description A change that has not taken effect: a downgrade `scheduled` for the end of the period, or an upgrade that `requires_customer_action`. Cancel it by changing the plan back to `planId` of the subscription. */
            pendingPlanChange: components["schemas"]["SubscriptionPlanChangeInput"] | null;
            /** @description The merchant's key-value pairs. */
            metadata: {
                [key: string]: string;
            };
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        /**
         * @example {
         *       "id": "bps_01JD8ZX0000000000000000001",
         *       "object": "billing_portal.session",
         *       "url": "https://pay.example/billing-portal/session#bpt_x3Jc0n8WmJfQnYq3Gv7c5wOeZkYd2fNwR4s1uA9tLbE",
         *       "expiresAt": "2026-12-10T15:02:00.000Z",
         *       "customerId": "cus_01JD8ZX0000000000000000001",
         *       "returnUrl": "https://saas.example/account",
         *       "livemode": false,
         *       "createdAt": "2026-12-10T14:02:00.000Z"
         *     }
         */
        BillingPortalSessionInput: {
            /** @description The session id (prefix `bps_`). */
            id: string;
            /** @constant */
            object: "billing_portal.session";
            /** @description The portal link for this one customer, valid until `expiresAt`. It carries the session token: send the customer there, never store or log it. Only its hash is kept, so it is returned only on creation (null in the `billing_portal.session.created` event). */
            url: string | null;
            /**
             * Format: date-time
             * @description One hour after creation.
             */
            expiresAt: string;
            customerId: string;
            /** @description Null for a session the customer opened by signing in with their wallet. */
            returnUrl: string | null;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        /**
         * @example {
         *       "id": "bpc_01JD8ZX0000000000000000001",
         *       "object": "billing_portal.configuration",
         *       "cancel": {
         *         "mode": "at_period_end",
         *         "reasons": [
         *           "too_expensive",
         *           "unused",
         *           "other"
         *         ]
         *       },
         *       "planSwitching": {
         *         "planIds": [
         *           "plan_01JD8ZX0000000000000000001",
         *           "plan_01JD8ZX0000000000000000002"
         *         ]
         *       },
         *       "promotionCodes": false,
         *       "walletChanges": true,
         *       "livemode": false,
         *       "updatedAt": "2026-12-10T14:02:00.000Z"
         *     }
         */
        BillingPortalConfigurationInput: {
            /** @description Prefix `bpc_`; null while the merchant has not changed the defaults. */
            id: string | null;
            /** @constant */
            object: "billing_portal.configuration";
            cancel: {
                /**
                 * @description `at_period_end` (default): the customer cancels at the end of the paid period; `now`: at once; `off`: no cancel in the portal.
                 * @enum {string}
                 */
                mode: "off" | "now" | "at_period_end";
                /** @description The reasons the portal offers on cancel (Stripe Billing feedback codes); the customer picks one, and may add a comment. */
                reasons: ("customer_service" | "low_quality" | "missing_features" | "other" | "switched_service" | "too_complex" | "too_expensive" | "unused")[];
            };
            planSwitching: {
                /** @description The plans a customer may switch between (their subscription must be on one of them); empty: plan switching is off. */
                planIds: string[];
            };
            /** @description Whether the customer may apply a promotion code to a subscription (default false). */
            promotionCodes: boolean;
            /** @description Whether the customer may move a subscription to another wallet, which then signs its own enrolment for the same terms (default true). */
            walletChanges: boolean;
            livemode: boolean;
            updatedAt: string | null;
        };
        InvoiceLineItemInput: {
            description: string;
            quantity: number;
            /** @description Price of one unit in USDC base units (6 decimals). */
            unitAmount: string;
        };
        InvoiceInput: {
            id: string;
            /** @constant */
            object: "invoice";
            /** @description `<YYYY>-<NNNN>`: per merchant, mode and calendar year (UTC) of creation, consecutive without gaps from 0001. */
            number: string;
            customerName: string | null;
            customerEmail: string | null;
            /** @description The customer the invoice was created for (`customerId` at creation), else null. */
            customerId: string | null;
            currency: string;
            lineItems: components["schemas"]["InvoiceLineItemInput"][];
            /** @description Sum of quantity x unitAmount over the line items (integer arithmetic). */
            subtotal: string;
            /** @description Amount due; equals subtotal (no taxes or discounts yet). */
            total: string;
            /**
             * @description `draft` -> `sent` (send) -> `paid` (backing session confirmed) or `overdue` (dueAt passed unpaid; overdue can still be paid). `void` from draft, sent or overdue; never from paid.
             * @enum {string}
             */
            status: "draft" | "sent" | "paid" | "overdue" | "void";
            /** @description The backing payment session; its checkoutUrl is the pay link. */
            sessionId: string;
            /** @description Hosted checkout link of the backing session (sent in the email). */
            payUrl: string;
            /** @description Public page of the invoice as the customer sees it (number, lines, total, due date, status, a Pay button to payUrl, a PDF download). Unguessable, under the backing session: anyone with the link can read the invoice, as with payUrl. Sent in the email. */
            hostedInvoiceUrl: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            dueAt: string;
            dueInDays: number;
            note: string | null;
            /** @description When the SMTP server accepted the invoice email (invoice.sent). */
            sentAt: string | null;
            paidAt: string | null;
            voidedAt: string | null;
            /** @description The test clock whose time `dueAt` follows (test mode); null: wall time. */
            testClock: string | null;
            /** @description The merchant's key-value pairs. */
            metadata: {
                [key: string]: string;
            };
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        /** @description Wallet-signing instructions: send call from `from`, then POST /v1/refunds/{id}/signature with the transaction hash. */
        RefundInstructionsInput: {
            chainId: number;
            /** @description The token contract (USDC of this mode). */
            token: string;
            /** @description The merchant's payout address: the wallet that must send the refund (it received the payment). */
            from: string;
            /** @description The refund recipient (`recipient`, chosen as `recipientSource` says). */
            to: string;
            amount: string;
            /** @description The exact ERC-20 call the merchant wallet signs and sends. */
            call: {
                /** @description Contract to call: the token. */
                to: string;
                /** @description ABI-encoded calldata of transfer(to, amount): send as the transaction data from `from` (e.g. eth_sendTransaction { from, to, data, value: "0x0" }). */
                data: string;
                /**
                 * @description Native value to send with the call: none.
                 * @constant
                 */
                value: "0";
                /** @constant */
                functionName: "transfer";
                /** @description transfer arguments: recipient, amount. */
                args: [
                    string,
                    string
                ];
            };
        };
        RefundInput: {
            id: string;
            /** @constant */
            object: "refund";
            paymentSessionId: string;
            invoiceId: string | null;
            amount: string;
            currency: string;
            reason: string | null;
            /**
             * @description `requires_action`: waiting for the customer to name the address on the hosted refund-claim page (`claimUrl`); its amount is reserved; then `processing` or `pending` by the refund allowance. `pending` (method `wallet`): waiting for the merchant wallet's transfer (its amount is reserved). `processing` (method `allowance`): the operator is sending it from the refund allowance; it cannot be cancelled. `succeeded`: the transfer has the mode's confirmations (terminal; `refund.succeeded`). `failed`: the refund transfer was refused or reverted, `failureCode` says why; its amount is refundable again (terminal; `refund.failed`). `cancelled`: cancelled while pending or requires_action with POST /v1/refunds/{id}/cancel; its amount is refundable again (terminal).
             * @enum {string}
             */
            status: "requires_action" | "pending" | "processing" | "succeeded" | "failed" | "cancelled";
            /**
             * @description `allowance`: the refund allowance of the payout wallet covered it when it was created, so the operator sends it (transferFrom payout -> customer) and it completes by itself. `wallet`: the allowance did not cover it (or none was granted), so the merchant's payout wallet sends it: sign the EIP-3009 transfer (POST /v1/refunds/{id}/authorization; the relay submits it) or send `instructions.call` and record it with POST /v1/refunds/{id}/signature.
             * @enum {string}
             */
            method: "allowance" | "wallet";
            /** @description For method `wallet` only (null for `allowance`, and while `requires_action`: no recipient yet): the transfer the payout wallet sends. */
            instructions: components["schemas"]["RefundInstructionsInput"] | null;
            /** @description Where the refund goes (null while `requires_action`: the customer has not named it yet). */
            recipient: string | null;
            /** @description Why it goes there: `payer_signer` (the wallet that signed the relayed payment), `deposit_sender` (the sender of the transfers that paid the session, or of the late deposit refunded), `merchant_specified` (`destination` at creation), `customer_claimed` (given on the hosted refund-claim page). Null while `requires_action`. */
            recipientSource: ("payer_signer" | "deposit_sender" | "merchant_specified" | "customer_claimed") | null;
            /** @description The late deposit this refund returns to its sender, if it was created for one. */
            depositId: string | null;
            /** @description The hosted refund-claim page where the customer names the address (an unguessable link; share it only with the customer). Set while the refund `requires_action`, null otherwise. */
            claimUrl: string | null;
            /** @description When the customer named the address on the claim page. */
            claimedAt: string | null;
            /** @description The refund transfer (the operator's as soon as it is mined; for `wallet`, the verified one). */
            transactionHash: string | null;
            /** @description Block of the operator's refund transfer, once confirmed. */
            blockNumber: string | null;
            /** @description Why the refund failed (`failed` only): one of the token refusal codes (insufficient_funds, insufficient_allowance, payer_blacklisted, merchant_blacklisted, account_blacklisted, token_paused, authorization_expired, authorization_not_yet_valid, authorization_used, signature_invalid), or `reverted`. Most likely: payer_blacklisted (the refunded customer's address is blocked by the issuer), merchant_blacklisted (the payout address is), token_paused (create a new refund once USDC resumes), insufficient_funds (top up the payout wallet), insufficient_allowance (raise the refund allowance). */
            failureCode: string | null;
            /** @description A readable sentence for `failureCode`. */
            failureReason: string | null;
            failedAt: string | null;
            succeededAt: string | null;
            cancelledAt: string | null;
            /** @description The chain the refund goes out on (EIP-155 id): the one the refunded money came in on, never another by default. */
            chainId: number;
            /** @description The merchant's key-value pairs. */
            metadata: {
                [key: string]: string;
            };
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        RefundAllowanceInput: {
            /** @constant */
            object: "refund_allowance";
            chainId: number;
            token: string;
            /** @description The merchant's payout address, which grants the allowance (null: no payout address set). */
            owner: string | null;
            /** @description The operator that sends refunds from the allowance (null: this deployment has no operator in this mode). */
            spender: string | null;
            /** @description The payout wallet's USDC allowance for the operator, on chain now. */
            allowance: string;
            /** @description What refunds being processed still take from it. */
            inUse: string;
            /** @description allowance - inUse: a refund up to this amount is sent by the operator. */
            available: string;
            /** @description The payout wallet's USDC balance (a refund also needs the funds). */
            balance: string;
            /** @description What to sign to grant the allowance by EIP-2612 permit (eth_signTypedData_v4 with message {owner, spender, value, nonce, deadline}), then POST /v1/refunds/allowance/permit. */
            permit: {
                domain: {
                    name: string;
                    version: string;
                    chainId: number;
                    verifyingContract: string;
                };
                /** @constant */
                primaryType: "Permit";
                /** @description The payout wallet's next EIP-2612 nonce. */
                nonce: string;
            } | null;
            /** @description The alternative without a signature: the payout wallet sends approve(spender, value) to the token itself (it pays the gas). */
            approve: {
                to: string;
                /** @constant */
                functionName: "approve";
                /** @description spender, value (a suggested cap). */
                args: string[];
            } | null;
        };
        RefundRecipientInput: {
            /** @constant */
            object: "refund_recipient";
            paymentSessionId: string;
            /** @description Where a refund of it (without destination or depositId) would go; null when the customer must claim it, or nobody paid. */
            recipient: string | null;
            /** @description Why: `payer_signer` or `deposit_sender` (see Refund.recipientSource). */
            recipientSource: ("payer_signer" | "deposit_sender" | "merchant_specified" | "customer_claimed") | null;
            /** @description Several senders paid it: a refund would be `requires_action` until the customer names the address on the claim page. */
            requiresClaim: boolean;
        };
        SubscriptionChargeInput: {
            id: string;
            /** @constant */
            object: "subscription_charge";
            subscriptionId: string;
            /** @description The chain the charge is sent on (EIP-155 id): always its subscription's. */
            chainId: number;
            /** @description The 0-based period this charge is for; at most one charge per period. */
            periodIndex: number;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            periodStart: string;
            /** @description What the period pulls (after the discount line, if any), in base units. */
            amount: string;
            /** @description The full amount of the period before any discount: `amount` plus `discount.amountOff`. */
            subtotal: string;
            /** @description The discount line of the charge; null: charged in full. */
            discount: {
                /** @description The discount id (`di_`). */
                discount: string;
                /** @description The coupon id. */
                coupon: string;
                promotionCode: string | null;
                /** @description The coupon's name, the line's label. */
                name: string | null;
                /** @description What the discount took off this period, in base units. */
                amountOff: string;
            } | null;
            /** @description The charge as its receipt lists it: the plan's full amount, then the discount line if any; they sum to `amount`. */
            lines: {
                /** @enum {string} */
                kind: "subscription" | "discount";
                /** @description The plan's name, or `Discount (<coupon name>, 20% off)`. */
                description: string;
                /** @description Base units; a discount line is negative (`-2000000`). */
                amount: string;
            }[];
            currency: string;
            /**
             * @description `failed` is the latest attempt's outcome; a later retry may still succeed.
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed";
            /** @description How many times this period has been attempted. */
            attempts: number;
            transactionHash: string | null;
            blockNumber: string | null;
            /** @description Why the last attempt failed: insufficient_funds, insufficient_allowance, cancelled_on_chain, period_beyond_term, amount_exceeds_terms, not_operator. */
            failureCode: string | null;
            failureReason: string | null;
            attemptedAt: string | null;
            settledAt: string | null;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        SubscriptionPeriodCloseLineInput: {
            /**
             * @description `fixed`: the period's price, in advance; `discount`: a coupon's share of it (negative); `proration`: a plan change's; `usage`: one meter's usage of the period before, in arrears.
             * @enum {string}
             */
            type: "fixed" | "discount" | "proration" | "usage";
            description: string;
            /** @description Base units, an integer string (negative for a discount). */
            amount: string;
            discountId?: string;
            meterId?: string;
            /** @enum {string} */
            model?: "per_unit" | "package" | "graduated" | "volume";
            /** @description The meter's aggregation over the usage window (exact decimal). */
            quantity?: string;
            packages?: string;
            tiers?: {
                tier: number;
                quantity: string;
                unitAmount: string;
                flatAmount: string;
                /** @description The tier's exact amount in base units (may carry decimals; the line is rounded once). */
                amount: string;
            }[];
        };
        SubscriptionPeriodCloseInput: {
            id: string;
            /** @constant */
            object: "subscription_period_close";
            subscriptionId: string;
            /** @description The period whose charge this close is (its fixed price in advance). */
            periodIndex: number;
            /** @description Start of the usage billed (the period before); null for period 0. */
            usageStart: string | null;
            /** @description End (exclusive) of the usage billed. */
            usageEnd: string | null;
            lines: components["schemas"]["SubscriptionPeriodCloseLineInput"][];
            total: string;
            /** @description Pulled on chain with the period: min(total, the cap the subscriber authorised). */
            charged: string;
            /** @description total - charged: billed by the open invoice `remainderInvoiceId`. */
            remainder: string;
            remainderInvoiceId: string | null;
            /** @description The close of a cancelled subscription's last usage (its last charged period up to the cancel): usage lines only, nothing pulled, the whole total invoiced. */
            final: boolean;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        /**
         * @example {
         *       "object": "upcoming_invoice",
         *       "subscriptionId": "sub_01JD5W3M6Q8X2K7Y9Z0A1B2C3D",
         *       "periodIndex": 2,
         *       "nextChargeAt": "2026-12-01T00:00:00.000Z",
         *       "usageStart": "2026-11-01T00:00:00.000Z",
         *       "usageEnd": "2026-12-01T00:00:00.000Z",
         *       "lines": [
         *         {
         *           "type": "fixed",
         *           "description": "API, period 3",
         *           "amount": "10000000"
         *         },
         *         {
         *           "type": "usage",
         *           "description": "API calls: 12140 units",
         *           "meterId": "mtr_01JD5W3M6Q8X2K7Y9Z0A1B2C3E",
         *           "model": "per_unit",
         *           "quantity": "12140",
         *           "amount": "24280000"
         *         }
         *       ],
         *       "total": "34280000",
         *       "cap": "30000000",
         *       "amountToCharge": "30000000",
         *       "remainder": "4280000",
         *       "closed": false,
         *       "livemode": false
         *     }
         */
        UpcomingInvoiceInput: {
            /** @constant */
            object: "upcoming_invoice";
            subscriptionId: string;
            /** @description The period the next charge is for (its fixed price in advance). */
            periodIndex: number;
            /**
             * Format: date-time
             * @description When the next charge is due (a metered plan closes after its usage grace).
             */
            nextChargeAt: string;
            /** @description Start of the usage the next charge bills (the current period); null: none. */
            usageStart: string | null;
            /** @description End (exclusive) of that usage window. */
            usageEnd: string | null;
            /** @description The lines the next charge would have if usage stopped now: the same code as the period close. */
            lines: components["schemas"]["SubscriptionPeriodCloseLineInput"][];
            total: string;
            /** @description What the subscriber authorised per period on chain. */
            cap: string;
            /** @description What the charge would pull: min(total, cap). */
            amountToCharge: string;
            /** @description total - amountToCharge: what an open invoice would bill. */
            remainder: string;
            /** @description true: the period is closed already (its charge is being retried) and these are the close's frozen amounts. */
            closed: boolean;
            livemode: boolean;
        };
        StorefrontInput: {
            id: string;
            /** @constant */
            object: "storefront";
            slug: string;
            name: string;
            description: string | null;
            logoUrl: string | null;
            accentColor: string;
            supportEmail: string | null;
            successUrl: string | null;
            cancelUrl: string | null;
            /** @description The public store page, `{base_url}/store/{slug}`. */
            url: string;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            updatedAt: string;
        };
        ProductInput: {
            id: string;
            /** @constant */
            object: "product";
            name: string;
            description: string | null;
            imageUrl: string | null;
            /** @description Price in token base units, integer string. */
            amount: string;
            currency: string;
            /** @description The subscription plan a purchase enrols in; null for a one-shot product. */
            planId: string | null;
            active: boolean;
            /** @description Archived products are off the public page for good and cannot be changed. */
            archived: boolean;
            archivedAt: string | null;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            updatedAt: string;
        };
        StoreProductInput: {
            id: string;
            name: string;
            description: string | null;
            imageUrl: string | null;
            /** @description Price in token base units, integer string. */
            amount: string;
            currency: string;
            /** @description The price as shown on the page, e.g. `2.50 USDC`. */
            displayPrice: string;
            /** @enum {string} */
            kind: "one_time" | "subscription";
            /** @description For a subscription product: the billing interval of its plan. */
            interval: ("daily" | "weekly" | "monthly" | "quarterly" | "yearly") | null;
            intervalCount: number | null;
            /** @description POST here (same origin) to buy: `/store/{slug}/products/{id}/purchase`. */
            purchasePath: string;
        };
        StoreInput: {
            /** @constant */
            object: "store";
            slug: string;
            name: string;
            description: string | null;
            logoUrl: string | null;
            accentColor: string;
            supportEmail: string | null;
            /** @description False for a test-mode storefront (its page says so; payments are test tokens). */
            livemode: boolean;
            /** @description The active products, in the order they were added (at most 100). */
            products: components["schemas"]["StoreProductInput"][];
        };
        StorePurchaseInput: {
            /** @constant */
            object: "store_purchase";
            productId: string;
            /** @enum {string} */
            kind: "one_time" | "subscription";
            /** @description The payment session created for a one-shot product; null for a subscription product. */
            paymentSessionId: string | null;
            /** @description The hosted checkout (one-shot) or hosted enrolment (subscription) page to send the customer to. */
            checkoutUrl: string;
            /** @description The same page as a path on this host. */
            checkoutPath: string;
        };
        AgentConfigInput: {
            /** @constant */
            object: "agent_config";
            enabledCapabilities: ("recovery" | "cashflow" | "pricing_intelligence")[];
            recovery: {
                /** @description Hours a failed charge may be recovered before the subscription lapses (0 to 8760, default 72). */
                gracePeriodHours: number;
                /**
                 * @description When recovery retries a failed charge, in hours after the first refusal (grace window G): `once` (at G), `twice` (at G/2 and G, the default), `daily` (every 24 h below G, and at G). A top-up seen on-chain retries at once besides.
                 * @enum {string}
                 */
                strategy: "once" | "twice" | "daily";
                /** @description Text of the customer notice (up to 2000 characters). Placeholders: `{merchantName}`, `{planName}`, `{amount}`, `{currency}`, `{subscriptionId}`, `{customerEmail}`, `{status}`, `{graceDeadline}`, `{topUpUrl}`; the top-up link is appended when `{topUpUrl}` is absent. */
                notificationTemplate: string;
            };
            cashflow: {
                /** @description Whether the cashflow digest runs (default false). */
                digestEnabled: boolean;
                /**
                 * @description `low`, `medium` (default) or `high`: how small a deviation counts as an anomaly.
                 * @enum {string}
                 */
                anomalySensitivity: "low" | "medium" | "high";
                /** @description Whether idle balance above the reserve moves to the yield vault (default false). */
                autoConvertToYield: boolean;
                /** @description USD cents always kept liquid (non-negative integer, default 0). */
                minimumLiquidReserveCents: number;
            };
            commerce: {
                /** @description A job whose amount, in USD cents, is at or above this needs human approval (default 10000 = $100). USDC: 1 cent = 10,000 base units. */
                requireHumanApprovalAboveUsdCents: number;
                /** @description Vendors a job may be auto-approved for (default empty: every job needs approval). */
                approvedVendors: string[];
                /** @description Auto-approval never takes the calendar month (UTC) of approved jobs above this many USD cents (default 100000 = $1,000); a job past it is proposed for a human. */
                monthlySpendCapUsdCents: number;
            };
            /** @description The wallet the service holds for this merchant and mode (docs/agents.md, Custody). */
            agentWallet: {
                /** @description Address of the agent wallet that funds escrow jobs (created with the configuration). Fund it with USDC and native gas. */
                address: string | null;
            };
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            updatedAt: string;
        };
        AgentJobInput: {
            id: string;
            /** @constant */
            object: "agent_job";
            vendorAddress: string;
            evaluatorAddress: string;
            description: string;
            amount: string;
            currency: string;
            /** @description amount converted to USD cents (USDC: amount / 10,000, rounded up), as compared with the thresholds. */
            amountUsdCents: string;
            /**
             * @description proposed -> approved -> funded -> submitted -> completed | disputed; funded -> rejected; funded | submitted -> expired (refunded); proposed -> expired (nobody approved); approved -> failed. docs/agents.md has the table.
             * @enum {string}
             */
            status: "proposed" | "approved" | "funded" | "submitted" | "completed" | "rejected" | "disputed" | "expired" | "failed";
            /** @description Why the job needs human approval (empty when auto-approved). */
            approvalReasons: ("amount_at_or_above_threshold" | "vendor_not_approved" | "monthly_spend_cap")[];
            /**
             * Format: date-time
             * @description A proposed job not approved by then expires.
             */
            approvalDeadline: string;
            /** @description The chain the escrow runs on, chosen at creation (null only for a mode with no chain configured). */
            chainId: number | null;
            escrowAddress: string | null;
            /** @description The job id on the escrow contract. */
            onchainJobId: string | null;
            /** @description The on-chain deadline (expiredAt) of the escrow. */
            expiresAt: string | null;
            transactions: {
                create: string | null;
                fund: string | null;
                submit: string | null;
                /** @description complete (released to the vendor) or reject. */
                settle: string | null;
                /** @description claimRefund after expiry. */
                refund: string | null;
            };
            deliverable: string | null;
            failureReason: string | null;
            /** @description A `failed` job whose escrow call the token refused: the named refusal (`token_paused`, `payer_blacklisted` for the agent wallet, `insufficient_funds`, ...); null for other failures. */
            failureCode: ("insufficient_funds" | "insufficient_allowance" | "payer_blacklisted" | "merchant_blacklisted" | "account_blacklisted" | "token_paused" | "authorization_expired" | "authorization_not_yet_valid" | "authorization_used" | "signature_invalid") | null;
            approvedAt: string | null;
            fundedAt: string | null;
            submittedAt: string | null;
            finishedAt: string | null;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        AgentActivityInput: {
            id: string;
            /** @constant */
            object: "agent_activity";
            /**
             * @description `commerce` for escrow jobs, `configuration` for config changes; the three capabilities for their actions.
             * @enum {string}
             */
            capability: "recovery" | "cashflow" | "pricing_intelligence" | "commerce" | "configuration";
            /** @description One of `config_updated`, `job_created`, `job_proposed`, `job_approved`, `job_funded`, `job_submitted`, `job_completed`, `job_rejected`, `job_disputed`, `job_expired`, `job_refunded`, `job_failed`, `recovery_started`, `customer_notified`, `charge_retried`, `subscription_recovered`, `subscription_lapsed`, `digest_sent`, `revenue_anomaly`, `yield_deposited`, `yield_withdrawn`, `price_suggestion` (capabilities add theirs). */
            actionType: string;
            /** @enum {string} */
            outcome: "succeeded" | "failed" | "pending_approval" | "suggested";
            subscriptionId: string | null;
            /** @description The on-chain transaction hash of the action, when it sent one. */
            transactionId: string | null;
            jobId: string | null;
            /** @description Human-readable one-line summary. */
            summary: string;
            details: {
                [key: string]: unknown;
            };
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        MrrStatsInput: {
            /** @enum {string} */
            interval: "day" | "week" | "month";
            from: string;
            to: string;
            currency: string;
            planId: string | null;
            summary: {
                /** @description MRR just before the bucket (sum of every recorded change before it). */
                startingMrr: string;
                /** @description MRR of subscriptions paying for the first time (created active, or trial converted). */
                newMrr: string;
                /** @description Increases of a paying subscription's amount. */
                expansionMrr: string;
                /** @description Decreases of a paying subscription's amount. */
                contractionMrr: string;
                /** @description MRR lost by subscriptions that stopped paying: cancelled, lapsed, paused or completed. */
                churnedMrr: string;
                /** @description MRR of subscriptions paying again after having stopped (resumed from paused). */
                reactivationMrr: string;
                /** @description new + expansion + reactivation - contraction - churned. */
                netNewMrr: string;
                /** @description startingMrr + netNewMrr. */
                endingMrr: string;
                /** @description Paying customers at the end of the bucket (subscriptions of the plan with `planId`). */
                customers: string;
                /** @description endingMrr x 12. */
                arr: string;
            };
            series: {
                /** @description First day (UTC, YYYY-MM-DD) of the bucket inside the range. */
                date: string;
                /** @description MRR just before the bucket (sum of every recorded change before it). */
                startingMrr: string;
                /** @description MRR of subscriptions paying for the first time (created active, or trial converted). */
                newMrr: string;
                /** @description Increases of a paying subscription's amount. */
                expansionMrr: string;
                /** @description Decreases of a paying subscription's amount. */
                contractionMrr: string;
                /** @description MRR lost by subscriptions that stopped paying: cancelled, lapsed, paused or completed. */
                churnedMrr: string;
                /** @description MRR of subscriptions paying again after having stopped (resumed from paused). */
                reactivationMrr: string;
                /** @description new + expansion + reactivation - contraction - churned. */
                netNewMrr: string;
                /** @description startingMrr + netNewMrr. */
                endingMrr: string;
                /** @description Paying customers at the end of the bucket (subscriptions of the plan with `planId`). */
                customers: string;
            }[];
        };
        ChurnStatsInput: {
            /** @enum {string} */
            interval: "day" | "week" | "month";
            from: string;
            to: string;
            currency: string;
            planId: string | null;
            summary: {
                /** @description Paying customers just before the bucket. */
                customersAtStart: string;
                /** @description Distinct customers whose MRR went to zero through a cancel or a lapse in the bucket, each counted once. */
                churnedCustomers: string;
                /** @description Of those, customers with a cancel (a customer with both a cancel and a lapse counts here). */
                voluntaryChurnedCustomers: string;
                /** @description Of those, customers with only lapses (grace period exceeded). */
                involuntaryChurnedCustomers: string;
                /** @description churnedCustomers / customersAtStart. */
                customerChurnRate: string;
                /** @description Integer amount in base units, as a string. */
                mrrAtStart: string;
                /** @description MRR of subscriptions cancelled or lapsed in the bucket (paused and completed not included). */
                churnedMrr: string;
                /** @description Cancelled part of churnedMrr. */
                voluntaryChurnedMrr: string;
                /** @description Lapsed part of churnedMrr. */
                involuntaryChurnedMrr: string;
                /** @description churnedMrr / mrrAtStart. */
                mrrChurnRate: string;
            };
            series: {
                /** @description First day (UTC, YYYY-MM-DD) of the bucket inside the range. */
                date: string;
                /** @description Paying customers just before the bucket. */
                customersAtStart: string;
                /** @description Distinct customers whose MRR went to zero through a cancel or a lapse in the bucket, each counted once. */
                churnedCustomers: string;
                /** @description Of those, customers with a cancel (a customer with both a cancel and a lapse counts here). */
                voluntaryChurnedCustomers: string;
                /** @description Of those, customers with only lapses (grace period exceeded). */
                involuntaryChurnedCustomers: string;
                /** @description churnedCustomers / customersAtStart. */
                customerChurnRate: string;
                /** @description Integer amount in base units, as a string. */
                mrrAtStart: string;
                /** @description MRR of subscriptions cancelled or lapsed in the bucket (paused and completed not included). */
                churnedMrr: string;
                /** @description Cancelled part of churnedMrr. */
                voluntaryChurnedMrr: string;
                /** @description Lapsed part of churnedMrr. */
                involuntaryChurnedMrr: string;
                /** @description churnedMrr / mrrAtStart. */
                mrrChurnRate: string;
            }[];
        };
        ConversionStatsInput: {
            /** @enum {string} */
            interval: "day" | "week" | "month";
            from: string;
            to: string;
            currency: string;
            planId: string | null;
            summary: {
                /** @description Payment sessions created in the bucket; of them, how many are paid (completed) or expired now. */
                paymentSessions: {
                    /** @description A count, as an integer string. */
                    created: string;
                    /** @description A count, as an integer string. */
                    paid: string;
                    /** @description A count, as an integer string. */
                    expired: string;
                    /** @description paid / created. */
                    rate: string;
                };
                /** @description The payment sessions with a product (storefront checkouts). */
                storefront: {
                    /** @description A count, as an integer string. */
                    created: string;
                    /** @description A count, as an integer string. */
                    paid: string;
                    /** @description A count, as an integer string. */
                    expired: string;
                    /** @description paid / created. */
                    rate: string;
                };
                /** @description Invoices sent in the bucket; of them, how many are paid now. */
                invoices: {
                    /** @description A count, as an integer string. */
                    sent: string;
                    /** @description A count, as an integer string. */
                    paid: string;
                    /** @description paid / sent. */
                    rate: string;
                };
                /** @description Subscriptions created with a trial in the bucket; of them, how many have paid since. */
                trials: {
                    /** @description A count, as an integer string. */
                    started: string;
                    /** @description A count, as an integer string. */
                    converted: string;
                    /** @description converted / started. */
                    rate: string;
                };
            };
            series: {
                /** @description First day (UTC, YYYY-MM-DD) of the bucket inside the range. */
                date: string;
                /** @description Payment sessions created in the bucket; of them, how many are paid (completed) or expired now. */
                paymentSessions: {
                    /** @description A count, as an integer string. */
                    created: string;
                    /** @description A count, as an integer string. */
                    paid: string;
                    /** @description A count, as an integer string. */
                    expired: string;
                    /** @description paid / created. */
                    rate: string;
                };
                /** @description The payment sessions with a product (storefront checkouts). */
                storefront: {
                    /** @description A count, as an integer string. */
                    created: string;
                    /** @description A count, as an integer string. */
                    paid: string;
                    /** @description A count, as an integer string. */
                    expired: string;
                    /** @description paid / created. */
                    rate: string;
                };
                /** @description Invoices sent in the bucket; of them, how many are paid now. */
                invoices: {
                    /** @description A count, as an integer string. */
                    sent: string;
                    /** @description A count, as an integer string. */
                    paid: string;
                    /** @description paid / sent. */
                    rate: string;
                };
                /** @description Subscriptions created with a trial in the bucket; of them, how many have paid since. */
                trials: {
                    /** @description A count, as an integer string. */
                    started: string;
                    /** @description A count, as an integer string. */
                    converted: string;
                    /** @description converted / started. */
                    rate: string;
                };
            }[];
        };
        LtvStatsInput: {
            /** @enum {string} */
            interval: "day" | "week" | "month";
            from: string;
            to: string;
            currency: string;
            planId: string | null;
            summary: {
                /** @description MRR at the end of the bucket. */
                mrr: string;
                /** @description Paying customers at the end of the bucket. */
                customers: string;
                /** @description mrr / customers, truncated; 0 without customers. */
                arpa: string;
                /** @description Start of the trailing window: the bucket end minus 3 calendar months. */
                windowStart: string;
                /** @description A count, as an integer string. */
                customersAtWindowStart: string;
                /** @description A count, as an integer string. */
                churnedCustomersInWindow: string;
                /** @description churnedCustomersInWindow / (customersAtWindowStart x 3). */
                monthlyChurnRate: string;
                /** @description arpa x customersAtWindowStart x 3 / churnedCustomersInWindow, truncated; null when nobody churned in the window (no finite lifetime observed) or nobody was paying at its start (no base to measure churn against). */
                ltv: string | null;
                /** @description Observed lifetime revenue of the customers first seen in each month of the range. */
                cohorts: {
                    /** @description First day of the month the customers were first seen. */
                    cohort: string;
                    /** @description A count, as an integer string. */
                    customers: string;
                    /** @description Succeeded charges of those customers up to the end of `to`. */
                    revenue: string;
                    /** @description A count, as an integer string. */
                    charges: string;
                    /** @description revenue / customers, truncated. */
                    revenuePerCustomer: string;
                }[];
            };
            series: {
                /** @description First day (UTC, YYYY-MM-DD) of the bucket inside the range. */
                date: string;
                /** @description MRR at the end of the bucket. */
                mrr: string;
                /** @description Paying customers at the end of the bucket. */
                customers: string;
                /** @description mrr / customers, truncated; 0 without customers. */
                arpa: string;
                /** @description Start of the trailing window: the bucket end minus 3 calendar months. */
                windowStart: string;
                /** @description A count, as an integer string. */
                customersAtWindowStart: string;
                /** @description A count, as an integer string. */
                churnedCustomersInWindow: string;
                /** @description churnedCustomersInWindow / (customersAtWindowStart x 3). */
                monthlyChurnRate: string;
                /** @description arpa x customersAtWindowStart x 3 / churnedCustomersInWindow, truncated; null when nobody churned in the window (no finite lifetime observed) or nobody was paying at its start (no base to measure churn against). */
                ltv: string | null;
            }[];
        };
        ForecastStatsInput: {
            /** @enum {string} */
            interval: "day" | "week" | "month";
            from: string;
            to: string;
            currency: string;
            planId: string | null;
            summary: {
                /** @description MRR of active and at_risk subscriptions at the end of `to` (from the change ledger). */
                mrrNow: string;
                /** @description Sum of the series' cash. */
                projectedCash: string;
                /** @description Integer amount in base units, as a string. */
                projectedMrrAtEnd: string;
                assumptions: {
                    horizon: number;
                    observedFrom: string;
                    observedTo: string;
                    /** @description A count, as an integer string. */
                    customersAtObservedStart: string;
                    /** @description A count, as an integer string. */
                    churnedCustomersObserved: string;
                    /** @description churned x 365 / (customersAtObservedStart x observed days x 12): the observed churn per average month. */
                    monthlyChurnRate: string;
                    notes: string[];
                };
            };
            series: {
                /** @description First day (UTC, YYYY-MM-DD) of the bucket inside the range. */
                date: string;
                /** @description Whole months from the forecast start to the bucket start: the power of the survival factor. */
                monthsAhead: number;
                /** @description (1 - monthlyChurnRate)^monthsAhead. */
                survival: string;
                /** @description Charges due in the bucket by the schedules of live subscriptions, before churn. */
                scheduledCash: string;
                /** @description scheduledCash x survival, truncated. */
                cash: string;
                /** @description MRR of the subscriptions still in their term at the bucket start, before churn. */
                scheduledMrr: string;
                /** @description scheduledMrr x survival, truncated. */
                mrr: string;
            }[];
        };
        PayoutBalanceInput: {
            /** @constant */
            object: "payout_balance";
            /** @description The chain (EIP-155 id): one of the mode's configured chains. */
            chainId: number;
            /** @description The chain's name as the checkout shows it. */
            network: string;
            /** @description USDC on this chain. */
            token: string;
            /** @description The payout address sweeps and relayed payments pay on this chain (null: none set). */
            payoutAddress: string | null;
            /** @description The payout address's USDC balance on this chain now, in base units (null: no payout address, or the chain's node did not answer; see `unavailable`). */
            amount: string | null;
            /** @description True when this chain's node did not answer: the other chains are still listed. */
            unavailable: boolean;
        };
        TestClockInput: {
            id: string;
            /** @constant */
            object: "test_clock";
            name: string;
            /**
             * Format: date-time
             * @description The clock's time. While `advancing` it is the time it moves from.
             */
            frozenTime: string;
            /**
             * @description `advancing` until the chain and every attached workflow reached `advancingTo`.
             * @enum {string}
             */
            status: "ready" | "advancing" | "deleted";
            advancingTo: string | null;
            wallets: {
                walletAddress: string;
                /**
                 * Format: date-time
                 * @description ISO 8601 timestamp.
                 */
                attachedAt: string;
            }[];
            /** @constant */
            livemode: false;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            deletedAt: string | null;
        };
        Error: {
            error: {
                /** @enum {string} */
                code: "authentication_error" | "permission_denied" | "merchant_not_synced" | "not_found" | "invalid_request" | "session_invalid_state" | "idempotency_error" | "rate_limited" | "api_error" | "service_unavailable" | "method_not_allowed";
                message: string;
                param?: string;
                details?: {
                    issues?: {
                        path: string;
                        message: string;
                    }[];
                } & {
                    [key: string]: unknown;
                };
                requestId: string;
            };
        };
        ApiKey: {
            /** @description Key id (prefix `key_`); never the secret. */
            id: string;
            /** @constant */
            object: "api_key";
            name: string;
            /** @enum {string} */
            kind: "secret" | "publishable";
            /** @enum {string} */
            mode: "test" | "live";
            livemode: boolean;
            /** @description `sk_test_`, `sk_live_`, `pk_test_` or `pk_live_`. */
            prefix: string;
            /** @description The last four characters of the key, to recognise it. */
            last4: string;
            scopes: ("agents_read" | "agents_write" | "analytics_read" | "invoices_read" | "invoices_write" | "payment_sessions_read" | "payment_sessions_write" | "plans_read" | "plans_write" | "refunds_read" | "refunds_write" | "relay_read" | "relay_write" | "storefront_write" | "subscriptions_read" | "subscriptions_write" | "webhooks_read" | "webhooks_write")[];
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /** @description Updated at most every 30 seconds. */
            lastUsedAt: string | null;
            revoked: boolean;
            revokedAt: string | null;
            /** @description `revoked_by_merchant`, `leaked` or the reason given on revoke. */
            revokedReason: string | null;
            /** @description True for a key issued to replace a leaked one whose secret was not revealed yet (POST /v1/api-keys/{id}/reveal). */
            pendingReveal: boolean;
        };
        IssuedApiKey: {
            key: components["schemas"]["ApiKey"];
            /** @description The full key. Shown only in this response; store it now. */
            secret: string;
        };
        ApiKeyAuditEntry: {
            id: string;
            /** @constant */
            object: "api_key_audit_entry";
            apiKeyId: string;
            /** @enum {string} */
            action: "issued" | "revoked" | "revealed";
            /** @description `dashboard:<user id>` or `secret_scanning` (automatic leak rotation). */
            actor: string;
            reason: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        PaymentSessionDeposit: {
            /** @description The session's deposit address on its chain `chainId`: send exactly `amount` of `token` there to it from any wallet or exchange. A forwarder contract is deployed there only once funds arrive, and they are swept to the payout address the address was made for (`payTo`). Another accepted chain with a payout address of its own has its own address (`networks`). */
            address: string;
            /** @description What credited transfers to the address add up to, in token base units (transfers seen after the session ended are late deposits, not counted here). */
            amountReceived: string;
            /** @description What is still to be paid for the session to complete: the amount less the credited transfers and a confirmed relayed payment ("0" once completed). A wallet payment through the relay must pay exactly this. */
            amountRemaining: string;
            /** @description What was paid beyond the amount, by transfers or by transfers and a relayed payment together: recorded and refundable through POST /v1/refunds. */
            amountExcess: string;
            /** @description EIP-681 URI of the exact transfer (`ethereum:<token>@<chainId>/transfer?address=<deposit>&uint256=<amount remaining>`), for QR codes, on the session's `chainId`; `networks` has one per accepted chain. */
            paymentUri: string;
            /** @description Every accepted chain with its deposit address: the same address on every chain that pays the same payout address (one CREATE2 factory address per chain). A transfer on any of them counts toward the session; one on a configured chain the session does not accept is recorded as a late deposit and refundable. A transfer to any of the session's addresses is swept to the payout address that address was made for. */
            networks: {
                chainId: number;
                /** @description The chain's name for people ("Base", "Arbitrum One"). */
                network: string;
                /** @description The token to send on this chain (USDC has its own address on each). */
                token: string;
                /** @description The deposit address on this chain: `address` when the chain pays the same payout address, else the session's address for this chain's payout (the forwarder's salt binds the payout). */
                address: string;
                /** @description The merchant's payout address on this chain, where transfers to `address` are swept. */
                payTo: string;
                /** @description EIP-681 URI of the exact transfer on this chain (`...@<chainId>/transfer?...`). */
                paymentUri: string;
            }[];
        };
        PaymentSession: {
            id: string;
            /** @constant */
            object: "payment_session";
            /** @description Amount to pay, integer string in token base units. */
            amount: string;
            currency: string;
            /**
             * @description `open`: awaiting payment. `processing`: a relayed payment for it was accepted and is on its way to the chain. `completed`: the payment is confirmed on-chain (terminal). `expired`: expiresAt passed without a payment (terminal). `cancelled`: cancelled, e.g. by voiding its invoice (terminal). A failed relayed payment puts a processing session back to open (or expired when past expiresAt).
             * @enum {string}
             */
            status: "open" | "processing" | "completed" | "expired" | "cancelled";
            /** @description The address to pay on the session's chain `chainId`: the merchant's payout address there when the session was created. Another accepted chain may have its own (`deposit.networks[].payTo`). */
            payTo: string;
            /** @description The token contract (USDC of this mode) on `chainId`. */
            token: string;
            /** @description The first of `acceptedChainIds`: where `token` and `deposit.paymentUri` point. */
            chainId: number;
            /** @description The chains the session may be paid on (EIP-155 ids), in the order the hosted page offers them. */
            acceptedChainIds: number[];
            /** @description The chain of `transactionHash` (the relayed payment or the completing deposit); null until completed. */
            transactionChainId: number | null;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            expiresAt: string;
            successUrl: string | null;
            cancelUrl: string | null;
            /** @description The metadata given at creation. */
            metadata: {
                [key: string]: string;
            };
            /** @description The hosted checkout page of this session. */
            checkoutUrl: string;
            /** @description The invoice this session backs, if any. */
            invoiceId: string | null;
            /** @description The storefront product this session was bought for (the buy button of the public store page), if any; it stays set when the product is archived later. */
            productId: string | null;
            /** @description The product's name when it was bought (as the customer saw it on the store page). */
            productName: string | null;
            /** @description The paying wallet: the signer of the relayed payment once one was submitted, else the `from` of the transfers credited to the deposit address (null while none arrived, or when several wallets sent them). */
            payer: string | null;
            /** @description The customer of the paying wallet (`payer`), set when the session completes: found or created by wallet, never by email. Null before, and when several wallets paid it (docs/decisions.md, One-off payers as customers). */
            customerId: string | null;
            /** @description The email the payer gave on the hosted page (optional, unverified), if any. */
            customerEmail: string | null;
            /** @description The transaction that paid the session, once completed. */
            transactionHash: string | null;
            completedAt: string | null;
            /** @description Set when the session is an x402 payment (created by `POST /v1/x402/settle` of a seller using this facilitator); null otherwise. */
            x402: {
                /** @description The x402 scheme (`exact`). */
                scheme: string;
                /** @description CAIP-2 network, e.g. `eip155:8453`. */
                network: string;
                /** @description The buyer's wallet. */
                payer: string;
                /** @description The settlement transaction, once sent. */
                transaction: string | null;
                /** @description The paid resource as the x402 payment named it. */
                resource: {
                    url: string | null;
                    description: string | null;
                    mimeType: string | null;
                };
            } | null;
            /** @description Paying by transfer to a deposit address; null for sessions created before deposit addresses existed. */
            deposit: components["schemas"]["PaymentSessionDeposit"] | null;
            /** @description What can still be refunded, in token base units: everything received for the session, each receipt once (a confirmed relayed payment, the credited transfers with any overpayment, whether or not the session then completed, expired or was cancelled, and late deposits; a completed session counts at least its amount) minus its pending, processing and succeeded refunds. The most POST /v1/refunds accepts for this session; "0" when nothing was received or all is refunded (docs/refunds.md, What is refundable). */
            amountRefundable: string;
            /** @description What its refunds take, in token base units: the sum of its refunds that are awaiting action, pending, processing or succeeded (failed and cancelled ones take nothing). Above "0" with `amountRefundable` "0": refunded in full; above "0" with something still refundable: partly refunded. */
            amountRefunded: string;
            /** @description The test clock whose time `expiresAt` follows (test mode); null: wall time. */
            testClock: string | null;
            /** @description Why the latest payment relayed for this session failed (its refusal code and reason), while the session is open again after it, like Stripe's `last_payment_error`. Null when the latest payment did not fail, none was relayed, or the session is no longer open. Every try, failed or not, is in `GET /v1/payment-sessions/{id}/transactions`. */
            lastPaymentError: {
                /** @description A refusal code (docs/events.md "Refusal codes", e.g. `token_paused`, `payer_blacklisted`), else the contract error name, `Reverted` or `NonceConsumed`. */
                code: string;
                /** @description The readable reason. */
                reason: string;
            } | null;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        CheckoutChain: {
            chainId: number;
            /** @description The chain's name for people ("Base", "Anvil (local chain 31337)"). */
            network: string;
            /** @description The session's token (USDC) on this chain. */
            token: string;
            /** @description A payment session's payout address on this chain: a wallet payment on this chain authorizes a transfer to it. Absent on a plan's enrolment offer, whose `terms.merchant` names the chain's payout. */
            payTo?: string;
            /** @description EIP-3085 `wallet_addEthereumChain` parameters from the chain's preset (its public RPC and explorer), for a wallet that does not know the chain; null for a chain without a preset (a local chain). */
            addChain: {
                /** @description 0x-prefixed hex. */
                chainId: string;
                chainName: string;
                nativeCurrency: {
                    name: string;
                    symbol: string;
                    decimals: number;
                };
                rpcUrls: string[];
                blockExplorerUrls: string[];
            } | null;
        };
        CheckoutSession: {
            id: string;
            /** @constant */
            object: "checkout_session";
            amount: string;
            currency: string;
            token: string;
            chainId: number;
            /** @description The chains the customer may choose among, first the default. */
            acceptedChainIds: number[];
            /** @description The accepted chains as the page offers them (the order of `acceptedChainIds`): name, token and how a wallet adds it. */
            chains: components["schemas"]["CheckoutChain"][];
            payTo: string;
            /** @enum {string} */
            status: "open" | "processing" | "completed" | "expired" | "cancelled";
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            expiresAt: string;
            /** @description The merchant's business name (or account name) to show the customer. */
            merchantName: string;
            successUrl: string | null;
            cancelUrl: string | null;
            livemode: boolean;
            /** @description The name of the chain to pay on, for people ("Base", "Anvil (local chain 31337)"). */
            network: string;
            deposit: components["schemas"]["PaymentSessionDeposit"] | null;
            /** @description The merchant's storefront name in this mode, if it has a storefront. */
            storeName: string | null;
            /** @description The storefront's logo URL (https), if any. */
            logoUrl: string | null;
            /** @description Where the customer can ask the merchant for help (the storefront's support email), if any. */
            supportEmail: string | null;
            /** @description The storefront product being bought, if any. */
            productName: string | null;
            /** @description The invoice this session pays: its number and line items. */
            invoice: {
                number: string;
                lineItems: {
                    description: string;
                    quantity: number;
                    unitAmount: string;
                }[];
            } | null;
            /** @description Why the latest payment posted for this session failed, while the session is open again after it: a page opened or reloaded while that payment was processing can still tell the payer why. Null when the latest payment did not fail, or the session is no longer open. */
            lastPaymentError: {
                /** @description A refusal code (docs/events.md "Refusal codes", e.g. `token_paused`, `payer_blacklisted`), else the contract error name, `Reverted` or `NonceConsumed`. */
                code: string;
                /** @description The readable reason. */
                reason: string;
            } | null;
        };
        PaymentSessionTransaction: {
            /** @constant */
            object: "payment_session_transaction";
            /**
             * @description `payment`: a relayed payment (the payer's signed transfer the relay sent, x402 settlements included). `deposit`: a transfer into the session's deposit address. `sweep`: the transfer forwarding a deposit to the payout address. `refund`: a refund of the session.
             * @enum {string}
             */
            kind: "payment" | "deposit" | "sweep" | "refund";
            /** @description The chain the transaction is on (EIP-155 id). */
            chainId: number;
            /** @description The object the transaction belongs to: the relay submission (`rls_...`), the deposit (`dep_...`, also for its sweep) or the refund (`re_...`). */
            sourceId: string;
            /**
             * @description `pending`: not sent yet. `submitted`: sent (or seen), waiting for inclusion or confirmations. `confirmed`: included with the required confirmations (final). `failed`: reverted, dropped or refused (see failureCode). `removed`: a reorg took the transfer off the chain. `cancelled`: a refund cancelled before it was sent.
             * @enum {string}
             */
            status: "pending" | "submitted" | "confirmed" | "failed" | "removed" | "cancelled";
            /** @description The transaction, once sent (null for one refused before sending). */
            transactionHash: string | null;
            /** @description The block holding it (decimal string), once known. */
            blockNumber: string | null;
            /** @description Blocks on top of and including the one holding it, at least: from the relay's tracking and the indexer's last checkpoint, so it can trail the chain head by the indexer's poll interval. Null when the block is not known. */
            confirmations: number | null;
            /** @description The confirmations this mode's chain needs before a transfer counts (finality). */
            requiredConfirmations: number;
            from: string | null;
            to: string | null;
            /** @description What it moves, in token base units. */
            amount: string | null;
            /** @description A deposit that arrived after the session had ended, or on a configured chain the session does not accept (not credited to it; refundable). False for other kinds. */
            late: boolean;
            /** @description The named refusal (e.g. `insufficient_funds`, `authorization_used`) when it failed. */
            failureCode: string | null;
            failureReason: string | null;
            /**
             * Format: date-time
             * @description When the service recorded it (the submission, the observed transfer, the refund request).
             */
            createdAt: string;
            /** @description When it reached the status confirmed, if it did. */
            confirmedAt: string | null;
        };
        PaymentSessionTransactionList: {
            /** @description Every transaction of the session, oldest first (one page: a session has few). */
            data: components["schemas"]["PaymentSessionTransaction"][];
        };
        PromotionCode: {
            id: string;
            /** @constant */
            object: "promotion_code";
            code: string;
            /** @description The coupon id. */
            coupon: string;
            active: boolean;
            expiresAt: string | null;
            firstTimeTransaction: boolean;
            maxRedemptions: number | null;
            timesRedeemed: number;
            /** @description The merchant's key-value pairs. */
            metadata: {
                [key: string]: string;
            };
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            updatedAt: string;
        };
        Token: {
            /** @constant */
            object: "token";
            /** @description Checksummed token address. */
            address: string;
            chainId: number;
            livemode: boolean;
            name: string;
            symbol: string;
            decimals: number;
            /** @description The EIP-712 domain to sign EIP-3009 and EIP-2612 messages with (from eip712Domain(), else name() and version() as on Circle USDC, else a known value for the chain); null when the token has no signing domain. */
            domain: {
                name: string;
                version: string;
                chainId: number;
                verifyingContract: string;
            } | null;
            /** @description Bitmap of supported standards: 1 = EIP-3009 (transfer/receiveWithAuthorization), 2 = EIP-2612 (permit), 4 = ERC-5267 (eip712Domain). Detected by probing the contract. */
            capabilities: number;
            /** @description The capability bits spelled out. */
            supports: {
                eip3009: boolean;
                eip2612: boolean;
                erc5267: boolean;
            };
        };
        PermitNonce: {
            /** @constant */
            object: "permit_nonce";
            token: string;
            owner: string;
            /** @description The owner's current EIP-2612 nonce (nonces(owner)) as an integer string: sign the next permit with it. */
            nonce: string;
        };
        RelaySubmission: {
            /** @constant */
            object: "relay_submission";
            id: string;
            /** @description The Idempotency-Key the submission was made with; GET /v1/relay/submissions/{idempotencyKey} reads it. */
            idempotencyKey: string;
            /** @enum {string} */
            kind: "payment" | "subscription";
            livemode: boolean;
            chainId: number;
            /**
             * @description `pending`: accepted, not yet sent. `submitted`: sent, waiting for inclusion and confirmations. `confirmed`: included with the required confirmations. `failed`: reverted or refused on-chain; see failureReason. Terminal: confirmed, failed.
             * @enum {string}
             */
            status: "pending" | "submitted" | "confirmed" | "failed";
            /** @description EIP-712 digest of the signed authorization (payment) or enrolment (subscription); one submission per digest, ever. */
            authorizationDigest: string;
            /** @description Hash of the relayer transaction (the latest one when a stuck transaction was replaced with a higher fee). */
            transactionHash: string | null;
            /** @description Block that included the transaction, as an integer string. */
            blockNumber: string | null;
            /** @description Blocks on top of and including the one holding the transaction. */
            confirmations: number;
            requiredConfirmations: number;
            /** @description When failed: a refusal code (`insufficient_funds`, `insufficient_allowance`, `payer_blacklisted`, `merchant_blacklisted`, `account_blacklisted`, `token_paused`, `authorization_expired`, `authorization_not_yet_valid`, `authorization_used`, `signature_invalid`; docs/events.md "Refusal codes"), else the contract error name, `Reverted` or `NonceConsumed`. */
            failureCode: string | null;
            /** @description What went wrong, readable: the refusal in a sentence, or the decoded revert and its arguments. */
            failureReason: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            updatedAt: string;
        };
        CheckoutPayment: {
            /** @constant */
            object: "checkout_payment";
            sessionId: string;
            /**
             * @description Status of the relay submission that carries the payment; poll GET /v1/checkout/sessions/{id} until the session is completed.
             * @enum {string}
             */
            submissionStatus: "pending" | "submitted" | "confirmed" | "failed";
            transactionHash: string | null;
            /** @description When failed: a refusal code (docs/events.md "Refusal codes", e.g. `payer_blacklisted`, `token_paused`, `insufficient_funds`), else the contract error name, `Reverted` or `NonceConsumed`. The hosted page shows the payer one sentence per refusal code. */
            failureCode: string | null;
            /** @description When failed: the relay's readable reason. */
            failureReason: string | null;
        };
        CheckoutCustomerEmail: {
            /** @constant */
            object: "checkout_customer_email";
            sessionId: string;
            email: string;
        };
        CheckoutEnrolmentOffer: {
            /** @constant */
            object: "checkout_enrolment_offer";
            planId: string;
            planName: string;
            merchantName: string;
            livemode: boolean;
            /** @description The chain these terms, the manager and its domain are on: the one asked for, else the plan's first. */
            chainId: number;
            /** @description Every chain the plan is offered on, the default first: the hosted page's network picker. GET again with `?chainId=` for another chain's offer. */
            chains: components["schemas"]["CheckoutChain"][];
            /** @description The SubscriptionManager the permit is granted to and the Enrolment is signed for. */
            subscriptionManager: string;
            /** @description The SubscriptionManager's EIP-712 domain (sign Enrolment with it). */
            managerDomain: {
                name: string;
                version: string;
                chainId: number;
                verifyingContract: string;
            };
            /** @description The Enrolment terms the subscriber signs; the enrol route accepts exactly these (trialEnd no later than offered). */
            terms: {
                token: string;
                merchant: string;
                operator: string;
                amount: string;
                /** @description Seconds: the plan interval on SubscriptionManagerV2 (months as the mean Gregorian month, 2,629,746 s; days and weeks exact). */
                period: string;
                /** @description 0: open-ended (plans have no end). */
                periods: number;
                /** @description Unix seconds; now + the plan's trial days, or 0 without a trial. */
                trialEnd: string;
                /** @description Seconds after a period's start during which it may be charged: the period plus the calendar's largest drift from it, rounded up to an hour. */
                chargeWindow: string;
            };
            /** @description The allowance the page asks the subscriber to permit: 12 periods of the plan amount (renewed from the emailed renewal link). */
            permitValue: string;
            /** @description The `promotionCode` asked about, applied to this plan; null without one. */
            discount: {
                /** @description The code as the merchant wrote it. */
                promotionCode: string;
                couponName: string | null;
                percentOff: number | null;
                amountOff: string | null;
                /** @description What each discounted period pulls, in base units (the terms keep the full amount, the cap). */
                discountedAmount: string;
                /** @description How many charged periods are discounted; null: every one. */
                periods: number | null;
            } | null;
        };
        CheckoutEnrolment: {
            /** @constant */
            object: "checkout_enrolment";
            planId: string;
            nonce: string;
            /** @description The chain the enrolment was relayed on. */
            chainId: number;
            /** @enum {string} */
            submissionStatus: "pending" | "submitted" | "confirmed" | "failed";
            transactionHash: string | null;
            /** @description When failed: a refusal code (docs/events.md "Refusal codes", e.g. `payer_blacklisted`, `token_paused`, `insufficient_funds`), else the contract error name, `Reverted` or `NonceConsumed`. The hosted page shows the payer one sentence per refusal code. */
            failureCode: string | null;
            failureReason: string | null;
        };
        CheckoutRenewalOffer: {
            /** @constant */
            object: "checkout_renewal_offer";
            subscriptionId: string;
            /** @description The subscription's status (at_risk when a charge already failed for lack of allowance). */
            status: string;
            merchantName: string;
            planName: string;
            livemode: boolean;
            /** @description The subscription's chain: where it was enrolled, is charged, and where the permit goes. */
            chainId: number;
            /** @description EIP-3085 `wallet_addEthereumChain` parameters from the chain's preset (its public RPC and explorer), for a wallet that does not know the chain; null for a chain without a preset (a local chain). */
            addChain: {
                /** @description 0x-prefixed hex. */
                chainId: string;
                chainName: string;
                nativeCurrency: {
                    name: string;
                    symbol: string;
                    decimals: number;
                };
                rpcUrls: string[];
                blockExplorerUrls: string[];
            } | null;
            /** @description The token the permit is signed for. */
            token: string;
            /** @description The token's EIP-712 domain (sign the Permit with it). */
            tokenDomain: {
                name: string;
                version: string;
                chainId: number;
                verifyingContract: string;
            };
            /** @description The permit owner: the wallet that pays the subscription. */
            subscriber: string;
            /** @description The SubscriptionManager. */
            spender: string;
            /** @description One period of the subscription, in token base units. */
            amount: string;
            /** @description The allowance the SubscriptionManager has now. */
            allowance: string;
            /** @description Whole periods the current allowance pays. */
            periodsLeft: number;
            /** @description The subscriber's current permit nonce. */
            permitNonce: string;
            /** @description The allowance to permit: the current allowance plus 12 periods of the amount. */
            permitValue: string;
        };
        CheckoutRenewal: {
            /** @constant */
            object: "checkout_renewal";
            subscriptionId: string;
            permitNonce: string;
            /** @enum {string} */
            status: "pending" | "confirmed" | "failed";
            transactionHash: string | null;
            /** @description When failed and the token refused the permit: its refusal code (docs/events.md "Refusal codes", e.g. `token_paused`, `authorization_expired`). The hosted page shows the subscriber one sentence per code. */
            failureCode: string | null;
            failureReason: string | null;
        };
        /** @description What the approval page asks `subscriber` to sign: a new enrolment on the subscription's chain, starting at its next period, which replaces the current enrolment (then cancelled on chain). For an upgrade, `planId`, `planName` and `terms.amount` are the new plan's; for a wallet change, the plan stays and `terms.amount` is the current authorised amount. */
        CheckoutReauthorisationOffer: {
            /** @constant */
            object: "checkout_reauthorisation_offer";
            planId: string;
            planName: string;
            merchantName: string;
            livemode: boolean;
            /** @description The chain these terms, the manager and its domain are on: the one asked for, else the plan's first. */
            chainId: number;
            /** @description Every chain the plan is offered on, the default first: the hosted page's network picker. GET again with `?chainId=` for another chain's offer. */
            chains: components["schemas"]["CheckoutChain"][];
            /** @description The SubscriptionManager the permit is granted to and the Enrolment is signed for. */
            subscriptionManager: string;
            /** @description The SubscriptionManager's EIP-712 domain (sign Enrolment with it). */
            managerDomain: {
                name: string;
                version: string;
                chainId: number;
                verifyingContract: string;
            };
            /** @description The Enrolment terms the subscriber signs; the enrol route accepts exactly these (trialEnd no later than offered). */
            terms: {
                token: string;
                merchant: string;
                operator: string;
                amount: string;
                /** @description Seconds: the plan interval on SubscriptionManagerV2 (months as the mean Gregorian month, 2,629,746 s; days and weeks exact). */
                period: string;
                /** @description 0: open-ended (plans have no end). */
                periods: number;
                /** @description Unix seconds; now + the plan's trial days, or 0 without a trial. */
                trialEnd: string;
                /** @description Seconds after a period's start during which it may be charged: the period plus the calendar's largest drift from it, rounded up to an hour. */
                chargeWindow: string;
            };
            /** @description The allowance the page asks the subscriber to permit: 12 periods of the plan amount (renewed from the emailed renewal link). */
            permitValue: string;
            /** @description The `promotionCode` asked about, applied to this plan; null without one. */
            discount: {
                /** @description The code as the merchant wrote it. */
                promotionCode: string;
                couponName: string | null;
                percentOff: number | null;
                amountOff: string | null;
                /** @description What each discounted period pulls, in base units (the terms keep the full amount, the cap). */
                discountedAmount: string;
                /** @description How many charged periods are discounted; null: every one. */
                periods: number | null;
            } | null;
            /**
             * @description `plan_change`: an upgrade above the authorised amount; `wallet_change`: the subscription moves to another wallet.
             * @enum {string}
             */
            kind: "plan_change" | "wallet_change";
            /** @description The upgrade’s plan change (null for a wallet change). */
            planChangeId: string | null;
            /** @description The wallet change (null for an upgrade). */
            walletChangeId: string | null;
            subscriptionId: string;
            /** @description The plan the subscription is on now. */
            fromPlanName: string;
            /** @description What a period charges now (before a discount), base units. */
            fromAmount: string;
            /** @description The wallet the subscription charges now. */
            currentSubscriber: string;
            /** @description The only wallet whose signature is accepted: the subscribing wallet for an upgrade, the wallet the customer named for a wallet change. */
            subscriber: string;
            /**
             * Format: date-time
             * @description When the new amount is first charged: the start of the subscription’s next period, the new enrolment’s period 0 (its trialEnd). The period in progress stays as paid; nothing is prorated.
             */
            firstChargeAt: string;
        };
        CheckoutReauthorisation: {
            /** @constant */
            object: "checkout_reauthorisation";
            /** @description The change approved: its plan change id, or its wallet change id. */
            id: string;
            planChangeId: string | null;
            /** @description The enrolment nonce signed. */
            nonce: string;
            chainId: number;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            firstChargeAt: string;
            /** @enum {string} */
            submissionStatus: "pending" | "submitted" | "confirmed" | "failed";
            transactionHash: string | null;
            /** @description When failed: a refusal code (docs/events.md "Refusal codes", e.g. `payer_blacklisted`, `token_paused`, `insufficient_funds`), else the contract error name, `Reverted` or `NonceConsumed`. The hosted page shows the payer one sentence per refusal code. */
            failureCode: string | null;
            failureReason: string | null;
        };
        /**
         * @example {
         *       "object": "checkout_reauthorisation_status",
         *       "id": "swc_01JD8ZX0000000000000000001",
         *       "kind": "wallet_change",
         *       "subscriptionId": "sub_01JD8ZX0000000000000000001",
         *       "status": "submitted",
         *       "subscriber": "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
         *       "firstChargeAt": "2027-01-10T14:02:00.000Z",
         *       "appliedAt": null
         *     }
         */
        CheckoutReauthorisationStatus: {
            /** @constant */
            object: "checkout_reauthorisation_status";
            /** @description The plan change id, or the wallet change id. */
            id: string;
            /**
             * @description `plan_change`: an upgrade above the authorised amount; `wallet_change`: the subscription moves to another wallet.
             * @enum {string}
             */
            kind: "plan_change" | "wallet_change";
            subscriptionId: string;
            /**
             * @description `pending`: nothing signed yet (or a signature that could not be applied: sign again); `submitted`: the signed enrolment was relayed and is bound to `firstChargeAt`, waiting to be indexed; `applied`: the subscription charges through it; `cancelled`: the change was withdrawn (an enrolment signed for it is cancelled on chain when indexed).
             * @enum {string}
             */
            status: "pending" | "submitted" | "applied" | "cancelled";
            /** @description The wallet that signs (or signed) the replacement enrolment. */
            subscriber: string;
            /** @description The period the signed enrolment is bound to (null before a signature). */
            firstChargeAt: string | null;
            appliedAt: string | null;
        };
        MeteredPrice: {
            /** @constant */
            model: "per_unit";
            /** @description The meter whose usage this price bills (same merchant and mode). */
            meterId: string;
            /** @description Base units per unit, a decimal string of at most 12 decimals: "2000" is 0.002 USDC a unit, "0.5" half a base unit (lines round once, half up). */
            unitAmount: string;
        } | {
            /** @constant */
            model: "package";
            /** @description The meter whose usage this price bills (same merchant and mode). */
            meterId: string;
            /** @description Units per package; a partial package is billed as a whole one (rounded up). */
            packageSize: string;
            /** @description Base units per package. */
            packageAmount: string;
        } | {
            /** @constant */
            model: "graduated";
            /** @description The meter whose usage this price bills (same merchant and mode). */
            meterId: string;
            tiers: {
                upTo: string | null;
                /** @description Base units per unit, a decimal string of at most 12 decimals: "2000" is 0.002 USDC a unit, "0.5" half a base unit (lines round once, half up). */
                unitAmount: string;
                /**
                 * @description Base units added once when the tier is reached. Default "0".
                 * @default 0
                 */
                flatAmount: string;
            }[];
        } | {
            /** @constant */
            model: "volume";
            /** @description The meter whose usage this price bills (same merchant and mode). */
            meterId: string;
            tiers: {
                upTo: string | null;
                /** @description Base units per unit, a decimal string of at most 12 decimals: "2000" is 0.002 USDC a unit, "0.5" half a base unit (lines round once, half up). */
                unitAmount: string;
                /**
                 * @description Base units added once when the tier is reached. Default "0".
                 * @default 0
                 */
                flatAmount: string;
            }[];
        };
        ChainPayout: {
            /** @constant */
            object: "chain_payout";
            /** @description The mode the chain is configured for. */
            livemode: boolean;
            /** @description The chain (EIP-155 id): one of the configured chains of the mode. */
            chainId: number;
            /** @description The chain's name for people ("Base", "Anvil (local chain 31337)"). */
            network: string;
            /** @description Where the merchant is paid on this chain now (EIP-55): relayed payments, deposit sweeps, x402 settlements, subscription terms and the refund allowance on this chain. The address set for this chain, else the account's `payoutAddress`; null: neither is set. */
            payoutAddress: string | null;
            /**
             * @description `chain`: an address set for this chain (PUT /v1/merchants/me/payout-addresses/{chainId}); `account`: the account's payout address.
             * @enum {string}
             */
            source: "chain" | "account";
        };
        Merchant: {
            /** @description Merchant id (prefix `mer_`). */
            id: string;
            /** @constant */
            object: "merchant";
            /** @description Display name: the business name once onboarded, else the name claim of the first login. */
            name: string;
            /** @description Owner email that receives account notices (leaked keys, verification). */
            email: string | null;
            /** @description True once the owner confirmed the email verification code. */
            emailVerified: boolean;
            /** @description True once TOTP enrolment was confirmed with a valid code. */
            twoFactorEnabled: boolean;
            /** @description The self-attested business onboarding form; null until submitted. */
            business: {
                name: string;
                /** @enum {string} */
                sector: "saas" | "ecommerce" | "marketplace" | "digital_goods" | "gaming" | "financial_services" | "education" | "nonprofit" | "professional_services" | "media" | "travel" | "other";
                /** @description ISO 3166-1 alpha-2 code. */
                country: string;
                /** @description EVM address receiving payouts, EIP-55 checksummed. */
                payoutAddress: string;
            } | null;
            /** @description The address new checkouts pay to now (EIP-55): the business profile sets it; a development seed may set it before onboarding. null: no payments can be taken yet. */
            payoutAddress: string | null;
            /** @description The effective payout address on each configured chain of both modes (test first): the address set for the chain, else `payoutAddress`. Set with PUT /v1/merchants/me/payout-addresses/{chainId}. */
            payoutAddresses: components["schemas"]["ChainPayout"][];
            /** @description True when all three live-mode checks pass; live keys can then be issued. */
            liveModeEligible: boolean;
            /** @description The pinned API version used when a request sends no Service-Version header. */
            apiVersion: string;
            /** @description Requests per minute allowed per API key (Starter 10,000; Enterprise custom). */
            rateLimitPerMinute: number;
            /** @description Origins whose web pages may call the API with publishable keys (CORS); `["*"]` allows any origin, `[]` none. */
            allowedOrigins: string[];
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        LiveModeIneligibilityReason: {
            /**
             * @description Which check is unmet.
             * @enum {string}
             */
            check: "email_verification" | "two_factor" | "business_onboarding";
            /**
             * @description Machine-readable reason.
             * @enum {string}
             */
            code: "email_missing" | "email_not_verified" | "two_factor_not_enabled" | "business_profile_missing";
            /** @description Human-readable explanation. */
            message: string;
            /** @description The endpoint that completes the check, e.g. `POST /v1/merchants/me/email-verification`. */
            action: string;
        };
        LiveModeEligibility: {
            /** @constant */
            object: "live_mode_eligibility";
            /** @description True when every check passed: live keys may be issued now. */
            eligible: boolean;
            /** @description Each check with whether it passed and when. */
            checks: {
                emailVerification: {
                    passed: boolean;
                    completedAt: string | null;
                };
                twoFactor: {
                    passed: boolean;
                    completedAt: string | null;
                };
                businessOnboarding: {
                    passed: boolean;
                    completedAt: string | null;
                };
            };
            /** @description One entry per unmet check; empty when eligible. */
            reasons: components["schemas"]["LiveModeIneligibilityReason"][];
        };
        AcceptedChains: {
            /** @constant */
            object: "accepted_chains";
            /** @description The mode this setting is of: each mode has its own chains and its own setting. */
            livemode: boolean;
            /** @description The chains a new payment session accepts when its request names none (`acceptedChainIds` of POST /v1/payment-sessions), in the mode's configuration order. null: every chain of the mode, including chains configured later. */
            acceptedChainIds: number[] | null;
            /** @description Every chain configured for this mode, in configuration order (the first is a session's default). */
            chains: {
                chainId: number;
                /** @description The chain's name for people ("Base", "Anvil (local chain 31337)"). */
                network: string;
                /** @description Whether a new session accepts it by default. */
                accepted: boolean;
            }[];
        };
        /** @description Which receipts are emailed to the customer, when the customer's email is known. Defaults: payment and refund on, subscription charge and invoice off. */
        ReceiptSettings: {
            /** @constant */
            object: "receipt_settings";
            /** @description The mode these switches are of: each mode has its own. */
            livemode: boolean;
            /** @description Email a receipt when a payment session is paid (not one backing an invoice: `invoice` covers it). */
            payment: boolean;
            /** @description Email a receipt for each succeeded subscription charge, with the discount line where there is one. */
            subscriptionCharge: boolean;
            /** @description Email a receipt when a refund succeeded on chain. */
            refund: boolean;
            /** @description Email a receipt when an invoice is paid. */
            invoice: boolean;
        };
        LeakReportResult: {
            /** @description SHA-256 (hex) of the reported token; the token itself is never echoed. */
            token_hash: string;
            token_type: string;
            /**
             * @description `true_positive` when it is one of our secret keys.
             * @enum {string}
             */
            label: "true_positive" | "false_positive";
            /**
             * @description What we did: revoked and replaced the key (owner emailed), nothing because it was revoked before, or nothing.
             * @enum {string}
             */
            action: "revoked_and_replaced" | "already_revoked" | "none";
        }[];
        WebhookEndpoint: {
            id: string;
            /** @constant */
            object: "webhook_endpoint";
            url: string;
            events: string[];
            /** @enum {string} */
            mode: "test" | "live";
            /** @enum {string} */
            status: "active" | "disabled";
            /** @description Why the endpoint is disabled: `manual` (POST .../disable), `too_many_failures` (5 permanent failures in 24 hours) or `expired` (a listener whose `npm run listen` session ended more than an hour ago). */
            disabledReason: ("manual" | "too_many_failures" | "expired") | null;
            disabledAt: string | null;
            /** @description The leading characters of the current signing secret (`whsec_` and six more). */
            signingSecretPrefix: string;
            /** @description After a rotation, the previous secret keeps signing beside the new one until this time. */
            previousSecretExpiresAt: string | null;
            description: string;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /**
             * @description `url`: deliveries are POSTed to `url`. `listener`: a test-mode `npm run listen` session receives them and forwards them on the developer's machine; `url` then reads `listener:<forward target>` and is never called by the service.
             * @enum {string}
             */
            kind: "url" | "listener";
            /** @description Listeners only: nothing is delivered after this time. It moves forward while a session is connected and is one hour after the last session closed. */
            expiresAt: string | null;
        };
        WebhookEndpointWithSecret: {
            endpoint: components["schemas"]["WebhookEndpoint"];
            /** @description The `whsec_...` signing secret; returned only here. */
            signingSecret: string;
        };
        WebhookDelivery: {
            id: string;
            /** @constant */
            object: "webhook_delivery";
            endpointId: string;
            /** @description Also the `webhook-id` header: the same on every attempt and replay, so receivers can dedupe on it. */
            eventId: string;
            eventType: string;
            /**
             * @description `sending` (the request is out, no answer recorded yet), `succeeded` (2xx), `failed` (another attempt follows at nextRetryAt unless the endpoint is disabled), `permanently_failed` (no more attempts), `interrupted` (the sender stopped before the answer was recorded, e.g. a crash; the same attempt was sent again and has its own record: the receiver may have got it twice, same webhook-id).
             * @enum {string}
             */
            status: "sending" | "interrupted" | "succeeded" | "failed" | "permanently_failed";
            /** @description 1 for the first attempt of a sequence. An attempt sent again after an interruption has a record per send. */
            attempt: number;
            /** @description 0 for the original attempt sequence, N for the Nth replay. */
            replay: number;
            /** @description The HTTP status returned, or null when no response arrived. */
            responseStatus: number | null;
            /** @description The first 1024 bytes of the response body. */
            responseBodyExcerpt: string | null;
            /** @description Why no usable response arrived (timeout, connection, refused address). */
            error: string | null;
            durationMs: number;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            attemptedAt: string;
            nextRetryAt: string | null;
            livemode: boolean;
        };
        WebhookReplay: {
            /** @constant */
            object: "webhook_replay";
            /** @description The delivery record that was replayed. */
            deliveryId: string;
            endpointId: string;
            eventId: string;
            /** @description The replay number; its attempts carry it in `replay`. */
            replay: number;
            /** @constant */
            status: "queued";
        };
        WebhookTestEvent: {
            /** @constant */
            object: "webhook_test_event";
            endpointId: string;
            /** @description The recorded test event; also the `webhook-id` header. */
            eventId: string;
            /** @enum {string} */
            eventType: "webhook_endpoint.test" | "invoice.created" | "invoice.sent" | "invoice.paid" | "invoice.overdue" | "invoice.updated" | "subscription.created" | "subscription.charged" | "subscription.charge_failed" | "subscription.cancelled" | "subscription.lapsed" | "subscription.updated" | "subscription.trial_will_end" | "subscription.usage_over_cap" | "subscription.final_usage_invoiced" | "subscription.usage_threshold_reached" | "agent.action_executed" | "agent.job_proposed" | "agent.job_completed" | "agent.job_disputed" | "agent.job_failed" | "payment.completed" | "payment.failed" | "payment.partially_paid" | "payment.overpaid" | "payment.late_deposit" | "payment.deposit_reversed" | "payment.deposit_sweep_blocked" | "refund.created" | "refund.succeeded" | "refund.failed" | "refund.updated" | "subscription_plan.created" | "subscription_plan.updated" | "subscription_plan.archived" | "storefront.updated" | "product.created" | "product.updated" | "product.archived" | "coupon.created" | "coupon.updated" | "coupon.deleted" | "promotion_code.created" | "promotion_code.updated" | "customer.discount.created" | "customer.discount.deleted" | "billing_portal.session.created" | "customer.updated";
            /** @description The first attempt, when it was recorded within 15 seconds; otherwise null, and the attempts appear in GET /v1/webhook-deliveries?endpointId=... as they happen. */
            delivery: components["schemas"]["WebhookDelivery"] | null;
        };
        WebhookListener: {
            /** @constant */
            object: "webhook_listener";
            endpoint: components["schemas"]["WebhookEndpoint"];
            /** @description The `whsec_...` secret deliveries to this listener are signed with; returned only here. */
            signingSecret: string;
            /** @description GET this path (Accept: text/event-stream) to receive the deliveries. */
            streamPath: string;
            /** @description The listener expires this long after its last stream closed. */
            expiresAfterCloseSeconds: number;
        };
        WebhookListenerAnswer: {
            /** @constant */
            object: "webhook_listener_answer";
            requestId: string;
            /** @description False when the attempt had stopped waiting (too late) or another session answered first. */
            recorded: boolean;
        };
        Customer: {
            id: string;
            /** @constant */
            object: "customer";
            /** @description The customer's wallet (lower-case hex); one customer per wallet, merchant and mode. */
            walletAddress: string;
            /** @description The first email the customer left at checkout (enrolment or payment page), when they left one; unverified. */
            email: string | null;
            /**
             * Format: date-time
             * @description When the wallet was first seen paying this merchant in this mode (an enrolment or a completed payment).
             */
            firstSeenAt: string;
            /** @description Subscriptions of this customer, in any status. */
            subscriptionCount: number;
            /** @description Subscriptions not ended: trialing, active, at_risk or paused. */
            activeSubscriptionCount: number;
            /** @description When the customer's newest subscription was created. */
            lastSubscribedAt: string | null;
            /** @description Periodic charges that succeeded, over all of the customer's subscriptions. */
            succeededChargeCount: number;
            /** @description One-off payments (payment sessions) the wallet paid, completed; list them with GET /v1/payment-sessions?customerId=. */
            completedPaymentCount: number;
            /** @description The merchant's key-value pairs. */
            metadata: {
                [key: string]: string;
            };
            livemode: boolean;
        };
        Event: {
            /** @description Also the `webhook-id` header of its deliveries. */
            id: string;
            /** @constant */
            object: "event";
            /** @description The event kind (see the `events` of a webhook endpoint), or `webhook_endpoint.test`. */
            type: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            created: string;
            livemode: boolean;
            /** @description Exactly the `data` of the webhook payload; `data.object` is the object the event is about. */
            data: {
                [key: string]: unknown;
            };
            /** @description The id of `data.object`; null for a test event, which is about no real object. */
            objectId: string | null;
        };
        EventDelivery: {
            id: string;
            /** @constant */
            object: "webhook_delivery";
            endpointId: string;
            /** @description The URL of the endpoint when the attempt was read (`listener:...` for `npm run listen`). */
            endpointUrl: string;
            /** @enum {string} */
            status: "sending" | "interrupted" | "succeeded" | "failed" | "permanently_failed";
            attempt: number;
            /** @description 0 for the original attempt sequence, N for the Nth replay. */
            replay: number;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            attemptedAt: string;
            durationMs: number;
            nextRetryAt: string | null;
            responseStatus: number | null;
            /** @description The exact JSON body signed and sent (the first 65536 characters). */
            requestBody: string;
            /** @description The first 1024 bytes of the response body. */
            responseBodyExcerpt: string | null;
            error: string | null;
        };
        EventWithDeliveries: {
            /** @description Also the `webhook-id` header of its deliveries. */
            id: string;
            /** @constant */
            object: "event";
            /** @description The event kind (see the `events` of a webhook endpoint), or `webhook_endpoint.test`. */
            type: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            created: string;
            livemode: boolean;
            /** @description Exactly the `data` of the webhook payload; `data.object` is the object the event is about. */
            data: {
                [key: string]: unknown;
            };
            /** @description The id of `data.object`; null for a test event, which is about no real object. */
            objectId: string | null;
            /** @description Every delivery attempt of this event to any endpoint, oldest first (at most 100: the newest ones). */
            deliveries: components["schemas"]["EventDelivery"][];
        };
        EventList: {
            data: components["schemas"]["Event"][];
            /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
            nextCursor: string;
            /** @description True when another page follows; `nextCursor` is then non-empty. */
            hasMore: boolean;
        };
        X402PaymentRequirements: {
            /** @description Payment scheme; this facilitator settles `exact`. */
            scheme: string;
            /** @description CAIP-2 network, e.g. `eip155:8453`; GET /v1/x402/supported lists the ones of your mode. */
            network: string;
            /** @description Amount in token base units (USDC: 6 decimals), integer string. */
            amount: string;
            /** @description The token's address: the mode's USDC. */
            asset: string;
            /** @description The recipient: the merchant's payout address, or the deposit address of one of its open, unpaid payment sessions in the key's mode (the payment is then that session's deposit, for exactly its amount). */
            payTo: string;
            maxTimeoutSeconds: number;
            /** @description Scheme data; for `exact` on EVM the token's EIP-712 `name` and `version`. */
            extra?: {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        X402PaymentPayload: {
            x402Version: number;
            resource?: ({
                /** @description URL of the paid resource. */
                url: string;
                description?: string;
                mimeType?: string;
            } & {
                [key: string]: unknown;
            }) | null;
            accepted: components["schemas"]["X402PaymentRequirements"];
            /** @description Scheme data; for `exact` on EVM `{ signature, authorization: { from, to, value, validAfter, validBefore, nonce } }` (EIP-3009). */
            payload: {
                [key: string]: unknown;
            };
            extensions?: {
                [key: string]: unknown;
            } | null;
        } & {
            [key: string]: unknown;
        };
        X402FacilitatorRequest: {
            /** @description 2. */
            x402Version: number;
            /** @description The PAYMENT-SIGNATURE header of the buyer, decoded. */
            paymentPayload: components["schemas"]["X402PaymentPayload"];
            /** @description What the seller requires (the entry of PAYMENT-REQUIRED the payment answers). */
            paymentRequirements: components["schemas"]["X402PaymentRequirements"];
        } & {
            [key: string]: unknown;
        };
        X402VerifyResponse: {
            isValid: boolean;
            /** @description Why not, as the x402 reference facilitator names it (e.g. `invalid_exact_evm_signature`); absent when valid. */
            invalidReason?: string;
            /** @description The same in words, for a person. */
            invalidMessage?: string;
            /** @description The payer's wallet (authorization.from). */
            payer?: string;
        };
        X402SettleResponse: {
            success: boolean;
            /** @description Why not; `settlement_pending` with a `transaction` means it is on its way: settle again with the same payment to read the outcome. */
            errorReason?: string;
            errorMessage?: string;
            payer?: string;
            /** @description The transaction hash; empty when nothing was sent. */
            transaction: string;
            /** @description CAIP-2 network of the transaction. */
            network: string;
            /** @description The amount settled, in base units. */
            amount?: string;
        };
        X402SupportedResponse: {
            kinds: {
                x402Version: number;
                scheme: string;
                network: string;
                extra?: {
                    [key: string]: unknown;
                };
            }[];
            extensions: string[];
            /** @description The addresses that send settlements, per CAIP-2 family. */
            signers: {
                [key: string]: string[];
            };
        };
        SubscriptionPlan: {
            id: string;
            /** @constant */
            object: "subscription_plan";
            name: string;
            amount: string;
            currency: string;
            /** @enum {string} */
            interval: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
            intervalCount: number;
            trialPeriodDays: number;
            /**
             * @description When the trial ends and the first charge is refused for funds or allowance: `dunning` retries within the merchant's grace window (`at_risk`, then `lapsed`), `cancel` cancels the subscription at once (on chain too; `subscription.cancelled`, `cancelledBy: system`), `pause` pauses it (`paused`; resuming charges the next period that comes due). A charge refused for another cause (a blacklisted address, a paused token) follows its usual rule.
             * @enum {string}
             */
            trialEndBehavior: "dunning" | "cancel" | "pause";
            /** @description The chains the plan is offered on, first the default; null: every chain of the mode. */
            chainIds: number[] | null;
            /** @description Usage prices billed in arrears at each period start (docs/metered-billing.md); null: a fixed plan. */
            meteredPrices: components["schemas"]["MeteredPrice"][] | null;
            /** @description Metered plans: the most pulled per period, authorised on chain at enrolment (the enrolment amount); null: a fixed plan. */
            usageCap: string | null;
            /** @description Metered plans: how long after a period's start its close waits for late usage events; null: a fixed plan. */
            usageGracePeriodSeconds: number | null;
            /** @description Metered plans: the unbilled usage (base units) that is invoiced early, mid-period; null: none (or a fixed plan). */
            usageThreshold: string | null;
            /** @description An archived plan takes no new enrolments; subscriptions already on it keep running. */
            archived: boolean;
            archivedAt: string | null;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            updatedAt: string;
        };
        CheckoutPlan: {
            id: string;
            name: string;
            amount: string;
            currency: string;
            /** @enum {string} */
            interval: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
            intervalCount: number;
            trialPeriodDays: number;
            /** @description The chains the plan is offered on, first the default; null: every chain of the mode. */
            chainIds: number[] | null;
            /** @description Usage prices billed in arrears at each period start (docs/metered-billing.md); null: a fixed plan. */
            meteredPrices: components["schemas"]["MeteredPrice"][] | null;
            /** @description Metered plans: the most pulled per period, authorised on chain at enrolment (the enrolment amount); null: a fixed plan. */
            usageCap: string | null;
            livemode: boolean;
        };
        Coupon: {
            id: string;
            /** @constant */
            object: "coupon";
            name: string | null;
            /** @description Percent off (at most two decimals); null for an amount-off coupon. */
            percentOff: number | null;
            /** @description USDC base units off each discounted charge; null for a percent-off coupon. */
            amountOff: string | null;
            currency: string;
            /** @enum {string} */
            duration: "once" | "repeating" | "forever";
            durationInPeriods: number | null;
            maxRedemptions: number | null;
            /** @description Times applied (directly or through its promotion codes). */
            timesRedeemed: number;
            redeemBy: string | null;
            appliesTo: {
                planIds: string[];
            } | null;
            /** @description Whether it can still be applied (not past redeemBy, not used up). */
            valid: boolean;
            /** @description The merchant's key-value pairs. */
            metadata: {
                [key: string]: string;
            };
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            updatedAt: string;
        };
        DeletedCoupon: {
            id: string;
            /** @constant */
            object: "coupon";
            /** @constant */
            deleted: true;
        };
        BillingMeter: {
            id: string;
            /** @constant */
            object: "billing.meter";
            displayName: string;
            eventName: string;
            /** @enum {string} */
            aggregation: "sum" | "count" | "max" | "last" | "unique_count";
            /** @description Null for a `count` meter. */
            valueKey: string | null;
            customerMapping: {
                /** @enum {string} */
                type: "by_id" | "by_wallet";
                eventPayloadKey: string;
            };
            /**
             * @description An inactive meter takes no events; the events it has keep counting in summaries.
             * @enum {string}
             */
            status: "active" | "inactive";
            deactivatedAt: string | null;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            updatedAt: string;
        };
        BillingMeterEvent: {
            /** @constant */
            object: "billing.meter_event";
            identifier: string;
            eventName: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            timestamp: string;
            payload: {
                [key: string]: string;
            };
            /** @description True when an event with this identifier had been accepted already: this one was ignored. */
            duplicate: boolean;
            livemode: boolean;
        };
        BillingMeterEventBatchResult: {
            identifier: string;
            /**
             * @description `duplicate`: the identifier was accepted before, this event was ignored; `refused`: see `error`, nothing stored.
             * @enum {string}
             */
            status: "accepted" | "duplicate" | "refused";
            /** @description Why a refused event was refused; `param` is relative to the event (e.g. `timestamp`). */
            error?: {
                /** @constant */
                code: "invalid_request";
                message: string;
                param: string;
            };
        };
        BillingMeterEventBatch: {
            /** @constant */
            object: "billing.meter_event_batch";
            accepted: number;
            duplicates: number;
            refused: number;
            /** @description One result per event, in the order sent. */
            data: components["schemas"]["BillingMeterEventBatchResult"][];
        };
        BillingMeterEventCancellation: {
            /** @constant */
            object: "billing.meter_event_cancellation";
            identifier: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            cancelledAt: string;
        };
        BillingMeterEventSummary: {
            /** @constant */
            object: "billing.meter_event_summary";
            meterId: string;
            customerId: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            startTime: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            endTime: string;
            /** @description The aggregation over the window, as exact decimal text (no trailing zeros). */
            aggregatedValue: string;
        };
        Discount: {
            /** @description The discount id (prefix `di_`). */
            id: string;
            /** @constant */
            object: "discount";
            /** @description The coupon's terms the discount runs on. */
            coupon: {
                id: string;
                name: string | null;
                percentOff: number | null;
                amountOff: string | null;
                /** @enum {string} */
                duration: "once" | "repeating" | "forever";
                durationInPeriods: number | null;
            };
            /** @description The promotion code id it was redeemed through, if any. */
            promotionCode: string | null;
            /**
             * Format: date-time
             * @description When it was applied (the test clock’s time on a clock).
             */
            start: string;
            /** @description Calendar start of the first period charged in full, if no period is skipped (a paused period is not charged and does not count); null for `forever`. */
            end: string | null;
            /** @description Charged periods still discounted; null for `forever`. The discount ends after the last one. */
            periodsRemaining: number | null;
        };
        SubscriptionPlanChange: {
            /** @description The plan change id (prefix `spc_`). */
            id: string;
            /** @constant */
            object: "subscription_plan_change";
            fromPlanId: string;
            /** @description The plan the subscription moves to. */
            planId: string;
            /** @description What a period charged before the change (before a discount), base units. */
            fromAmount: string;
            /** @description The new plan's amount per period, base units. */
            amount: string;
            /**
             * @description `applied`: in effect (an upgrade within the authorised amount, or any change in a trial, at once; a downgrade at its period start); `scheduled`: a downgrade waiting for the end of the period; `requires_customer_action`: more than the customer authorised on chain per period, nothing changes or is charged until they authorise it; `cancelled`.
             * @enum {string}
             */
            status: "scheduled" | "requires_customer_action" | "applied" | "cancelled";
            /** @enum {string} */
            prorationBehavior: "create_prorations" | "none";
            /** @description What the upgrade adds to the next period’s charge for the rest of the period in progress: floor((amount - fromAmount) * remainingSeconds / periodSeconds), limited so that charge stays within the authorised amount; "0" for `none`, a downgrade or a change in a trial. */
            prorationAmount: string;
            /** @description When the new plan takes effect; null while the customer’s authorisation is awaited. */
            effectiveAt: string | null;
            /** @description For a change that `requires_customer_action`: the hosted page where the subscribing wallet signs a new enrolment for `amount` per period, which replaces the current one from the next period. Unguessable, good for this change only, until it is applied or cancelled; null otherwise. */
            hostedUrl: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        CancellationDetails: {
            /**
             * @description `merchant`: through the API or dashboard; `subscriber`: the customer.
             * @enum {string}
             */
            requestedBy: "merchant" | "subscriber";
            /** @description Free text given with the request. */
            reason: string | null;
            feedback: ("customer_service" | "low_quality" | "missing_features" | "other" | "switched_service" | "too_complex" | "too_expensive" | "unused") | null;
        };
        Subscription: {
            id: string;
            /** @constant */
            object: "subscription";
            planId: string;
            /** @enum {string} */
            status: "trialing" | "active" | "at_risk" | "paused" | "cancelled" | "lapsed" | "completed";
            /** @description The customer who enrolled. */
            customer: {
                /** @description Customer id (prefix `cus_`): one per wallet address, merchant and mode. */
                id: string;
                /** @description The subscriber wallet (lower-case hex). */
                walletAddress: string;
                email: string | null;
            };
            /** @description Maximum charged per period, integer string in the token's base units. */
            amount: string;
            /** @description What each period charges before a discount: the current plan's amount, at most `amount` (a plan change can lower it, or raise it up to `amount`). */
            planAmount: string;
            currency: string;
            /** @description Where the authorisation lives on-chain. */
            onChain: {
                chainId: string;
                /** @description The SubscriptionManager contract. */
                contractAddress: string;
                /** @description The id the contract assigned (decimal string). */
                subscriptionId: string;
                tokenAddress: string;
                /** @description The on-chain minimum period length the customer authorised. */
                periodSeconds: string;
                createdTxHash: string | null;
            };
            /** @description Number of authorised periods; 0 means open-ended. */
            periods: number;
            /**
             * Format: date-time
             * @description Start of period 0 (the end of the trial, if any).
             */
            firstPeriodStart: string;
            trialEnd: string | null;
            /** @description The last period charged (0-based), null before the first charge. */
            currentPeriodIndex: number | null;
            /** @description When the next period is due; null once terminal. */
            nextChargeAt: string | null;
            /** @description When the current failed charge first failed; null unless at_risk. */
            atRiskSince: string | null;
            cancelReason: string | null;
            cancelledBy: ("merchant" | "subscriber" | "operator" | "system") | null;
            cancelledAt: string | null;
            /** @description When the on-chain cancel was confirmed. */
            onChainCancelledAt: string | null;
            lapsedAt: string | null;
            completedAt: string | null;
            /** @description A cancel is scheduled: when the next period comes due (`cancelAt`) the subscription is cancelled instead of charged. */
            cancelAtPeriodEnd: boolean;
            /** @description When the scheduled cancel happens (the start of the next period); null: none scheduled. */
            cancelAt: string | null;
            /** @description Who asked to cancel (now or at the period end) and why; null: nobody did (or a scheduled cancel was undone). */
            cancellationDetails: components["schemas"]["CancellationDetails"] | null;
            /** @description The coupon applied to the charges (each pulls the discounted amount, never more than `amount`); null: none. */
            discount: components["schemas"]["Discount"] | null;
            /** @description A change that has not taken effect: a downgrade `scheduled` for the end of the period, or an upgrade that `requires_customer_action`. Cancel it by changing the plan back to `planId` of the subscription. */
            pendingPlanChange: components["schemas"]["SubscriptionPlanChange"] | null;
            /** @description The merchant's key-value pairs. */
            metadata: {
                [key: string]: string;
            };
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        /**
         * @example {
         *       "id": "bps_01JD8ZX0000000000000000001",
         *       "object": "billing_portal.session",
         *       "url": "https://pay.example/billing-portal/session#bpt_x3Jc0n8WmJfQnYq3Gv7c5wOeZkYd2fNwR4s1uA9tLbE",
         *       "expiresAt": "2026-12-10T15:02:00.000Z",
         *       "customerId": "cus_01JD8ZX0000000000000000001",
         *       "returnUrl": "https://saas.example/account",
         *       "livemode": false,
         *       "createdAt": "2026-12-10T14:02:00.000Z"
         *     }
         */
        BillingPortalSession: {
            /** @description The session id (prefix `bps_`). */
            id: string;
            /** @constant */
            object: "billing_portal.session";
            /** @description The portal link for this one customer, valid until `expiresAt`. It carries the session token: send the customer there, never store or log it. Only its hash is kept, so it is returned only on creation (null in the `billing_portal.session.created` event). */
            url: string | null;
            /**
             * Format: date-time
             * @description One hour after creation.
             */
            expiresAt: string;
            customerId: string;
            /** @description Null for a session the customer opened by signing in with their wallet. */
            returnUrl: string | null;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        /**
         * @example {
         *       "id": "bpc_01JD8ZX0000000000000000001",
         *       "object": "billing_portal.configuration",
         *       "cancel": {
         *         "mode": "at_period_end",
         *         "reasons": [
         *           "too_expensive",
         *           "unused",
         *           "other"
         *         ]
         *       },
         *       "planSwitching": {
         *         "planIds": [
         *           "plan_01JD8ZX0000000000000000001",
         *           "plan_01JD8ZX0000000000000000002"
         *         ]
         *       },
         *       "promotionCodes": false,
         *       "walletChanges": true,
         *       "livemode": false,
         *       "updatedAt": "2026-12-10T14:02:00.000Z"
         *     }
         */
        BillingPortalConfiguration: {
            /** @description Prefix `bpc_`; null while the merchant has not changed the defaults. */
            id: string | null;
            /** @constant */
            object: "billing_portal.configuration";
            cancel: {
                /**
                 * @description `at_period_end` (default): the customer cancels at the end of the paid period; `now`: at once; `off`: no cancel in the portal.
                 * @enum {string}
                 */
                mode: "off" | "now" | "at_period_end";
                /** @description The reasons the portal offers on cancel (Stripe Billing feedback codes); the customer picks one, and may add a comment. */
                reasons: ("customer_service" | "low_quality" | "missing_features" | "other" | "switched_service" | "too_complex" | "too_expensive" | "unused")[];
            };
            planSwitching: {
                /** @description The plans a customer may switch between (their subscription must be on one of them); empty: plan switching is off. */
                planIds: string[];
            };
            /** @description Whether the customer may apply a promotion code to a subscription (default false). */
            promotionCodes: boolean;
            /** @description Whether the customer may move a subscription to another wallet, which then signs its own enrolment for the same terms (default true). */
            walletChanges: boolean;
            livemode: boolean;
            updatedAt: string | null;
        };
        InvoiceLineItem: {
            description: string;
            quantity: number;
            /** @description Price of one unit in USDC base units (6 decimals). */
            unitAmount: string;
        };
        Invoice: {
            id: string;
            /** @constant */
            object: "invoice";
            /** @description `<YYYY>-<NNNN>`: per merchant, mode and calendar year (UTC) of creation, consecutive without gaps from 0001. */
            number: string;
            customerName: string | null;
            customerEmail: string | null;
            /** @description The customer the invoice was created for (`customerId` at creation), else null. */
            customerId: string | null;
            currency: string;
            lineItems: components["schemas"]["InvoiceLineItem"][];
            /** @description Sum of quantity x unitAmount over the line items (integer arithmetic). */
            subtotal: string;
            /** @description Amount due; equals subtotal (no taxes or discounts yet). */
            total: string;
            /**
             * @description `draft` -> `sent` (send) -> `paid` (backing session confirmed) or `overdue` (dueAt passed unpaid; overdue can still be paid). `void` from draft, sent or overdue; never from paid.
             * @enum {string}
             */
            status: "draft" | "sent" | "paid" | "overdue" | "void";
            /** @description The backing payment session; its checkoutUrl is the pay link. */
            sessionId: string;
            /** @description Hosted checkout link of the backing session (sent in the email). */
            payUrl: string;
            /** @description Public page of the invoice as the customer sees it (number, lines, total, due date, status, a Pay button to payUrl, a PDF download). Unguessable, under the backing session: anyone with the link can read the invoice, as with payUrl. Sent in the email. */
            hostedInvoiceUrl: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            dueAt: string;
            dueInDays: number;
            note: string | null;
            /** @description When the SMTP server accepted the invoice email (invoice.sent). */
            sentAt: string | null;
            paidAt: string | null;
            voidedAt: string | null;
            /** @description The test clock whose time `dueAt` follows (test mode); null: wall time. */
            testClock: string | null;
            /** @description The merchant's key-value pairs. */
            metadata: {
                [key: string]: string;
            };
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        /** @description Wallet-signing instructions: send call from `from`, then POST /v1/refunds/{id}/signature with the transaction hash. */
        RefundInstructions: {
            chainId: number;
            /** @description The token contract (USDC of this mode). */
            token: string;
            /** @description The merchant's payout address: the wallet that must send the refund (it received the payment). */
            from: string;
            /** @description The refund recipient (`recipient`, chosen as `recipientSource` says). */
            to: string;
            amount: string;
            /** @description The exact ERC-20 call the merchant wallet signs and sends. */
            call: {
                /** @description Contract to call: the token. */
                to: string;
                /** @description ABI-encoded calldata of transfer(to, amount): send as the transaction data from `from` (e.g. eth_sendTransaction { from, to, data, value: "0x0" }). */
                data: string;
                /**
                 * @description Native value to send with the call: none.
                 * @constant
                 */
                value: "0";
                /** @constant */
                functionName: "transfer";
                /** @description transfer arguments: recipient, amount. */
                args: [
                    string,
                    string
                ];
            };
        };
        Refund: {
            id: string;
            /** @constant */
            object: "refund";
            paymentSessionId: string;
            invoiceId: string | null;
            amount: string;
            currency: string;
            reason: string | null;
            /**
             * @description `requires_action`: waiting for the customer to name the address on the hosted refund-claim page (`claimUrl`); its amount is reserved; then `processing` or `pending` by the refund allowance. `pending` (method `wallet`): waiting for the merchant wallet's transfer (its amount is reserved). `processing` (method `allowance`): the operator is sending it from the refund allowance; it cannot be cancelled. `succeeded`: the transfer has the mode's confirmations (terminal; `refund.succeeded`). `failed`: the refund transfer was refused or reverted, `failureCode` says why; its amount is refundable again (terminal; `refund.failed`). `cancelled`: cancelled while pending or requires_action with POST /v1/refunds/{id}/cancel; its amount is refundable again (terminal).
             * @enum {string}
             */
            status: "requires_action" | "pending" | "processing" | "succeeded" | "failed" | "cancelled";
            /**
             * @description `allowance`: the refund allowance of the payout wallet covered it when it was created, so the operator sends it (transferFrom payout -> customer) and it completes by itself. `wallet`: the allowance did not cover it (or none was granted), so the merchant's payout wallet sends it: sign the EIP-3009 transfer (POST /v1/refunds/{id}/authorization; the relay submits it) or send `instructions.call` and record it with POST /v1/refunds/{id}/signature.
             * @enum {string}
             */
            method: "allowance" | "wallet";
            /** @description For method `wallet` only (null for `allowance`, and while `requires_action`: no recipient yet): the transfer the payout wallet sends. */
            instructions: components["schemas"]["RefundInstructions"] | null;
            /** @description Where the refund goes (null while `requires_action`: the customer has not named it yet). */
            recipient: string | null;
            /** @description Why it goes there: `payer_signer` (the wallet that signed the relayed payment), `deposit_sender` (the sender of the transfers that paid the session, or of the late deposit refunded), `merchant_specified` (`destination` at creation), `customer_claimed` (given on the hosted refund-claim page). Null while `requires_action`. */
            recipientSource: ("payer_signer" | "deposit_sender" | "merchant_specified" | "customer_claimed") | null;
            /** @description The late deposit this refund returns to its sender, if it was created for one. */
            depositId: string | null;
            /** @description The hosted refund-claim page where the customer names the address (an unguessable link; share it only with the customer). Set while the refund `requires_action`, null otherwise. */
            claimUrl: string | null;
            /** @description When the customer named the address on the claim page. */
            claimedAt: string | null;
            /** @description The refund transfer (the operator's as soon as it is mined; for `wallet`, the verified one). */
            transactionHash: string | null;
            /** @description Block of the operator's refund transfer, once confirmed. */
            blockNumber: string | null;
            /** @description Why the refund failed (`failed` only): one of the token refusal codes (insufficient_funds, insufficient_allowance, payer_blacklisted, merchant_blacklisted, account_blacklisted, token_paused, authorization_expired, authorization_not_yet_valid, authorization_used, signature_invalid), or `reverted`. Most likely: payer_blacklisted (the refunded customer's address is blocked by the issuer), merchant_blacklisted (the payout address is), token_paused (create a new refund once USDC resumes), insufficient_funds (top up the payout wallet), insufficient_allowance (raise the refund allowance). */
            failureCode: string | null;
            /** @description A readable sentence for `failureCode`. */
            failureReason: string | null;
            failedAt: string | null;
            succeededAt: string | null;
            cancelledAt: string | null;
            /** @description The chain the refund goes out on (EIP-155 id): the one the refunded money came in on, never another by default. */
            chainId: number;
            /** @description The merchant's key-value pairs. */
            metadata: {
                [key: string]: string;
            };
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        RefundAllowance: {
            /** @constant */
            object: "refund_allowance";
            chainId: number;
            token: string;
            /** @description The merchant's payout address, which grants the allowance (null: no payout address set). */
            owner: string | null;
            /** @description The operator that sends refunds from the allowance (null: this deployment has no operator in this mode). */
            spender: string | null;
            /** @description The payout wallet's USDC allowance for the operator, on chain now. */
            allowance: string;
            /** @description What refunds being processed still take from it. */
            inUse: string;
            /** @description allowance - inUse: a refund up to this amount is sent by the operator. */
            available: string;
            /** @description The payout wallet's USDC balance (a refund also needs the funds). */
            balance: string;
            /** @description What to sign to grant the allowance by EIP-2612 permit (eth_signTypedData_v4 with message {owner, spender, value, nonce, deadline}), then POST /v1/refunds/allowance/permit. */
            permit: {
                domain: {
                    name: string;
                    version: string;
                    chainId: number;
                    verifyingContract: string;
                };
                /** @constant */
                primaryType: "Permit";
                /** @description The payout wallet's next EIP-2612 nonce. */
                nonce: string;
            } | null;
            /** @description The alternative without a signature: the payout wallet sends approve(spender, value) to the token itself (it pays the gas). */
            approve: {
                to: string;
                /** @constant */
                functionName: "approve";
                /** @description spender, value (a suggested cap). */
                args: string[];
            } | null;
        };
        RefundRecipient: {
            /** @constant */
            object: "refund_recipient";
            paymentSessionId: string;
            /** @description Where a refund of it (without destination or depositId) would go; null when the customer must claim it, or nobody paid. */
            recipient: string | null;
            /** @description Why: `payer_signer` or `deposit_sender` (see Refund.recipientSource). */
            recipientSource: ("payer_signer" | "deposit_sender" | "merchant_specified" | "customer_claimed") | null;
            /** @description Several senders paid it: a refund would be `requires_action` until the customer names the address on the claim page. */
            requiresClaim: boolean;
        };
        SubscriptionCharge: {
            id: string;
            /** @constant */
            object: "subscription_charge";
            subscriptionId: string;
            /** @description The chain the charge is sent on (EIP-155 id): always its subscription's. */
            chainId: number;
            /** @description The 0-based period this charge is for; at most one charge per period. */
            periodIndex: number;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            periodStart: string;
            /** @description What the period pulls (after the discount line, if any), in base units. */
            amount: string;
            /** @description The full amount of the period before any discount: `amount` plus `discount.amountOff`. */
            subtotal: string;
            /** @description The discount line of the charge; null: charged in full. */
            discount: {
                /** @description The discount id (`di_`). */
                discount: string;
                /** @description The coupon id. */
                coupon: string;
                promotionCode: string | null;
                /** @description The coupon's name, the line's label. */
                name: string | null;
                /** @description What the discount took off this period, in base units. */
                amountOff: string;
            } | null;
            /** @description The charge as its receipt lists it: the plan's full amount, then the discount line if any; they sum to `amount`. */
            lines: {
                /** @enum {string} */
                kind: "subscription" | "discount";
                /** @description The plan's name, or `Discount (<coupon name>, 20% off)`. */
                description: string;
                /** @description Base units; a discount line is negative (`-2000000`). */
                amount: string;
            }[];
            currency: string;
            /**
             * @description `failed` is the latest attempt's outcome; a later retry may still succeed.
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed";
            /** @description How many times this period has been attempted. */
            attempts: number;
            transactionHash: string | null;
            blockNumber: string | null;
            /** @description Why the last attempt failed: insufficient_funds, insufficient_allowance, cancelled_on_chain, period_beyond_term, amount_exceeds_terms, not_operator. */
            failureCode: string | null;
            failureReason: string | null;
            attemptedAt: string | null;
            settledAt: string | null;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        SubscriptionPeriodCloseLine: {
            /**
             * @description `fixed`: the period's price, in advance; `discount`: a coupon's share of it (negative); `proration`: a plan change's; `usage`: one meter's usage of the period before, in arrears.
             * @enum {string}
             */
            type: "fixed" | "discount" | "proration" | "usage";
            description: string;
            /** @description Base units, an integer string (negative for a discount). */
            amount: string;
            discountId?: string;
            meterId?: string;
            /** @enum {string} */
            model?: "per_unit" | "package" | "graduated" | "volume";
            /** @description The meter's aggregation over the usage window (exact decimal). */
            quantity?: string;
            packages?: string;
            tiers?: {
                tier: number;
                quantity: string;
                unitAmount: string;
                flatAmount: string;
                /** @description The tier's exact amount in base units (may carry decimals; the line is rounded once). */
                amount: string;
            }[];
        };
        SubscriptionPeriodClose: {
            id: string;
            /** @constant */
            object: "subscription_period_close";
            subscriptionId: string;
            /** @description The period whose charge this close is (its fixed price in advance). */
            periodIndex: number;
            /** @description Start of the usage billed (the period before); null for period 0. */
            usageStart: string | null;
            /** @description End (exclusive) of the usage billed. */
            usageEnd: string | null;
            lines: components["schemas"]["SubscriptionPeriodCloseLine"][];
            total: string;
            /** @description Pulled on chain with the period: min(total, the cap the subscriber authorised). */
            charged: string;
            /** @description total - charged: billed by the open invoice `remainderInvoiceId`. */
            remainder: string;
            remainderInvoiceId: string | null;
            /** @description The close of a cancelled subscription's last usage (its last charged period up to the cancel): usage lines only, nothing pulled, the whole total invoiced. */
            final: boolean;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        /**
         * @example {
         *       "object": "upcoming_invoice",
         *       "subscriptionId": "sub_01JD5W3M6Q8X2K7Y9Z0A1B2C3D",
         *       "periodIndex": 2,
         *       "nextChargeAt": "2026-12-01T00:00:00.000Z",
         *       "usageStart": "2026-11-01T00:00:00.000Z",
         *       "usageEnd": "2026-12-01T00:00:00.000Z",
         *       "lines": [
         *         {
         *           "type": "fixed",
         *           "description": "API, period 3",
         *           "amount": "10000000"
         *         },
         *         {
         *           "type": "usage",
         *           "description": "API calls: 12140 units",
         *           "meterId": "mtr_01JD5W3M6Q8X2K7Y9Z0A1B2C3E",
         *           "model": "per_unit",
         *           "quantity": "12140",
         *           "amount": "24280000"
         *         }
         *       ],
         *       "total": "34280000",
         *       "cap": "30000000",
         *       "amountToCharge": "30000000",
         *       "remainder": "4280000",
         *       "closed": false,
         *       "livemode": false
         *     }
         */
        UpcomingInvoice: {
            /** @constant */
            object: "upcoming_invoice";
            subscriptionId: string;
            /** @description The period the next charge is for (its fixed price in advance). */
            periodIndex: number;
            /**
             * Format: date-time
             * @description When the next charge is due (a metered plan closes after its usage grace).
             */
            nextChargeAt: string;
            /** @description Start of the usage the next charge bills (the current period); null: none. */
            usageStart: string | null;
            /** @description End (exclusive) of that usage window. */
            usageEnd: string | null;
            /** @description The lines the next charge would have if usage stopped now: the same code as the period close. */
            lines: components["schemas"]["SubscriptionPeriodCloseLine"][];
            total: string;
            /** @description What the subscriber authorised per period on chain. */
            cap: string;
            /** @description What the charge would pull: min(total, cap). */
            amountToCharge: string;
            /** @description total - amountToCharge: what an open invoice would bill. */
            remainder: string;
            /** @description true: the period is closed already (its charge is being retried) and these are the close's frozen amounts. */
            closed: boolean;
            livemode: boolean;
        };
        Storefront: {
            id: string;
            /** @constant */
            object: "storefront";
            slug: string;
            name: string;
            description: string | null;
            logoUrl: string | null;
            accentColor: string;
            supportEmail: string | null;
            successUrl: string | null;
            cancelUrl: string | null;
            /** @description The public store page, `{base_url}/store/{slug}`. */
            url: string;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            updatedAt: string;
        };
        Product: {
            id: string;
            /** @constant */
            object: "product";
            name: string;
            description: string | null;
            imageUrl: string | null;
            /** @description Price in token base units, integer string. */
            amount: string;
            currency: string;
            /** @description The subscription plan a purchase enrols in; null for a one-shot product. */
            planId: string | null;
            active: boolean;
            /** @description Archived products are off the public page for good and cannot be changed. */
            archived: boolean;
            archivedAt: string | null;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            updatedAt: string;
        };
        StoreProduct: {
            id: string;
            name: string;
            description: string | null;
            imageUrl: string | null;
            /** @description Price in token base units, integer string. */
            amount: string;
            currency: string;
            /** @description The price as shown on the page, e.g. `2.50 USDC`. */
            displayPrice: string;
            /** @enum {string} */
            kind: "one_time" | "subscription";
            /** @description For a subscription product: the billing interval of its plan. */
            interval: ("daily" | "weekly" | "monthly" | "quarterly" | "yearly") | null;
            intervalCount: number | null;
            /** @description POST here (same origin) to buy: `/store/{slug}/products/{id}/purchase`. */
            purchasePath: string;
        };
        Store: {
            /** @constant */
            object: "store";
            slug: string;
            name: string;
            description: string | null;
            logoUrl: string | null;
            accentColor: string;
            supportEmail: string | null;
            /** @description False for a test-mode storefront (its page says so; payments are test tokens). */
            livemode: boolean;
            /** @description The active products, in the order they were added (at most 100). */
            products: components["schemas"]["StoreProduct"][];
        };
        StorePurchase: {
            /** @constant */
            object: "store_purchase";
            productId: string;
            /** @enum {string} */
            kind: "one_time" | "subscription";
            /** @description The payment session created for a one-shot product; null for a subscription product. */
            paymentSessionId: string | null;
            /** @description The hosted checkout (one-shot) or hosted enrolment (subscription) page to send the customer to. */
            checkoutUrl: string;
            /** @description The same page as a path on this host. */
            checkoutPath: string;
        };
        AgentConfig: {
            /** @constant */
            object: "agent_config";
            enabledCapabilities: ("recovery" | "cashflow" | "pricing_intelligence")[];
            recovery: {
                /** @description Hours a failed charge may be recovered before the subscription lapses (0 to 8760, default 72). */
                gracePeriodHours: number;
                /**
                 * @description When recovery retries a failed charge, in hours after the first refusal (grace window G): `once` (at G), `twice` (at G/2 and G, the default), `daily` (every 24 h below G, and at G). A top-up seen on-chain retries at once besides.
                 * @enum {string}
                 */
                strategy: "once" | "twice" | "daily";
                /** @description Text of the customer notice (up to 2000 characters). Placeholders: `{merchantName}`, `{planName}`, `{amount}`, `{currency}`, `{subscriptionId}`, `{customerEmail}`, `{status}`, `{graceDeadline}`, `{topUpUrl}`; the top-up link is appended when `{topUpUrl}` is absent. */
                notificationTemplate: string;
            };
            cashflow: {
                /** @description Whether the cashflow digest runs (default false). */
                digestEnabled: boolean;
                /**
                 * @description `low`, `medium` (default) or `high`: how small a deviation counts as an anomaly.
                 * @enum {string}
                 */
                anomalySensitivity: "low" | "medium" | "high";
                /** @description Whether idle balance above the reserve moves to the yield vault (default false). */
                autoConvertToYield: boolean;
                /** @description USD cents always kept liquid (non-negative integer, default 0). */
                minimumLiquidReserveCents: number;
            };
            commerce: {
                /** @description A job whose amount, in USD cents, is at or above this needs human approval (default 10000 = $100). USDC: 1 cent = 10,000 base units. */
                requireHumanApprovalAboveUsdCents: number;
                /** @description Vendors a job may be auto-approved for (default empty: every job needs approval). */
                approvedVendors: unknown[];
                /** @description Auto-approval never takes the calendar month (UTC) of approved jobs above this many USD cents (default 100000 = $1,000); a job past it is proposed for a human. */
                monthlySpendCapUsdCents: number;
            };
            /** @description The wallet the service holds for this merchant and mode (docs/agents.md, Custody). */
            agentWallet: {
                /** @description Address of the agent wallet that funds escrow jobs (created with the configuration). Fund it with USDC and native gas. */
                address: string | null;
            };
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            updatedAt: string;
        };
        AgentJob: {
            id: string;
            /** @constant */
            object: "agent_job";
            vendorAddress: string;
            evaluatorAddress: string;
            description: string;
            amount: string;
            currency: string;
            /** @description amount converted to USD cents (USDC: amount / 10,000, rounded up), as compared with the thresholds. */
            amountUsdCents: string;
            /**
             * @description proposed -> approved -> funded -> submitted -> completed | disputed; funded -> rejected; funded | submitted -> expired (refunded); proposed -> expired (nobody approved); approved -> failed. docs/agents.md has the table.
             * @enum {string}
             */
            status: "proposed" | "approved" | "funded" | "submitted" | "completed" | "rejected" | "disputed" | "expired" | "failed";
            /** @description Why the job needs human approval (empty when auto-approved). */
            approvalReasons: ("amount_at_or_above_threshold" | "vendor_not_approved" | "monthly_spend_cap")[];
            /**
             * Format: date-time
             * @description A proposed job not approved by then expires.
             */
            approvalDeadline: string;
            /** @description The chain the escrow runs on, chosen at creation (null only for a mode with no chain configured). */
            chainId: number | null;
            escrowAddress: string | null;
            /** @description The job id on the escrow contract. */
            onchainJobId: string | null;
            /** @description The on-chain deadline (expiredAt) of the escrow. */
            expiresAt: string | null;
            transactions: {
                create: string | null;
                fund: string | null;
                submit: string | null;
                /** @description complete (released to the vendor) or reject. */
                settle: string | null;
                /** @description claimRefund after expiry. */
                refund: string | null;
            };
            deliverable: string | null;
            failureReason: string | null;
            /** @description A `failed` job whose escrow call the token refused: the named refusal (`token_paused`, `payer_blacklisted` for the agent wallet, `insufficient_funds`, ...); null for other failures. */
            failureCode: ("insufficient_funds" | "insufficient_allowance" | "payer_blacklisted" | "merchant_blacklisted" | "account_blacklisted" | "token_paused" | "authorization_expired" | "authorization_not_yet_valid" | "authorization_used" | "signature_invalid") | null;
            approvedAt: string | null;
            fundedAt: string | null;
            submittedAt: string | null;
            finishedAt: string | null;
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        AgentActivity: {
            id: string;
            /** @constant */
            object: "agent_activity";
            /**
             * @description `commerce` for escrow jobs, `configuration` for config changes; the three capabilities for their actions.
             * @enum {string}
             */
            capability: "recovery" | "cashflow" | "pricing_intelligence" | "commerce" | "configuration";
            /** @description One of `config_updated`, `job_created`, `job_proposed`, `job_approved`, `job_funded`, `job_submitted`, `job_completed`, `job_rejected`, `job_disputed`, `job_expired`, `job_refunded`, `job_failed`, `recovery_started`, `customer_notified`, `charge_retried`, `subscription_recovered`, `subscription_lapsed`, `digest_sent`, `revenue_anomaly`, `yield_deposited`, `yield_withdrawn`, `price_suggestion` (capabilities add theirs). */
            actionType: string;
            /** @enum {string} */
            outcome: "succeeded" | "failed" | "pending_approval" | "suggested";
            subscriptionId: string | null;
            /** @description The on-chain transaction hash of the action, when it sent one. */
            transactionId: string | null;
            jobId: string | null;
            /** @description Human-readable one-line summary. */
            summary: string;
            details: {
                [key: string]: unknown;
            };
            livemode: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
        };
        MrrStats: {
            /** @enum {string} */
            interval: "day" | "week" | "month";
            from: string;
            to: string;
            currency: string;
            planId: string | null;
            summary: {
                /** @description MRR just before the bucket (sum of every recorded change before it). */
                startingMrr: string;
                /** @description MRR of subscriptions paying for the first time (created active, or trial converted). */
                newMrr: string;
                /** @description Increases of a paying subscription's amount. */
                expansionMrr: string;
                /** @description Decreases of a paying subscription's amount. */
                contractionMrr: string;
                /** @description MRR lost by subscriptions that stopped paying: cancelled, lapsed, paused or completed. */
                churnedMrr: string;
                /** @description MRR of subscriptions paying again after having stopped (resumed from paused). */
                reactivationMrr: string;
                /** @description new + expansion + reactivation - contraction - churned. */
                netNewMrr: string;
                /** @description startingMrr + netNewMrr. */
                endingMrr: string;
                /** @description Paying customers at the end of the bucket (subscriptions of the plan with `planId`). */
                customers: string;
                /** @description endingMrr x 12. */
                arr: string;
            };
            series: {
                /** @description First day (UTC, YYYY-MM-DD) of the bucket inside the range. */
                date: string;
                /** @description MRR just before the bucket (sum of every recorded change before it). */
                startingMrr: string;
                /** @description MRR of subscriptions paying for the first time (created active, or trial converted). */
                newMrr: string;
                /** @description Increases of a paying subscription's amount. */
                expansionMrr: string;
                /** @description Decreases of a paying subscription's amount. */
                contractionMrr: string;
                /** @description MRR lost by subscriptions that stopped paying: cancelled, lapsed, paused or completed. */
                churnedMrr: string;
                /** @description MRR of subscriptions paying again after having stopped (resumed from paused). */
                reactivationMrr: string;
                /** @description new + expansion + reactivation - contraction - churned. */
                netNewMrr: string;
                /** @description startingMrr + netNewMrr. */
                endingMrr: string;
                /** @description Paying customers at the end of the bucket (subscriptions of the plan with `planId`). */
                customers: string;
            }[];
        };
        ChurnStats: {
            /** @enum {string} */
            interval: "day" | "week" | "month";
            from: string;
            to: string;
            currency: string;
            planId: string | null;
            summary: {
                /** @description Paying customers just before the bucket. */
                customersAtStart: string;
                /** @description Distinct customers whose MRR went to zero through a cancel or a lapse in the bucket, each counted once. */
                churnedCustomers: string;
                /** @description Of those, customers with a cancel (a customer with both a cancel and a lapse counts here). */
                voluntaryChurnedCustomers: string;
                /** @description Of those, customers with only lapses (grace period exceeded). */
                involuntaryChurnedCustomers: string;
                /** @description churnedCustomers / customersAtStart. */
                customerChurnRate: string;
                /** @description Integer amount in base units, as a string. */
                mrrAtStart: string;
                /** @description MRR of subscriptions cancelled or lapsed in the bucket (paused and completed not included). */
                churnedMrr: string;
                /** @description Cancelled part of churnedMrr. */
                voluntaryChurnedMrr: string;
                /** @description Lapsed part of churnedMrr. */
                involuntaryChurnedMrr: string;
                /** @description churnedMrr / mrrAtStart. */
                mrrChurnRate: string;
            };
            series: {
                /** @description First day (UTC, YYYY-MM-DD) of the bucket inside the range. */
                date: string;
                /** @description Paying customers just before the bucket. */
                customersAtStart: string;
                /** @description Distinct customers whose MRR went to zero through a cancel or a lapse in the bucket, each counted once. */
                churnedCustomers: string;
                /** @description Of those, customers with a cancel (a customer with both a cancel and a lapse counts here). */
                voluntaryChurnedCustomers: string;
                /** @description Of those, customers with only lapses (grace period exceeded). */
                involuntaryChurnedCustomers: string;
                /** @description churnedCustomers / customersAtStart. */
                customerChurnRate: string;
                /** @description Integer amount in base units, as a string. */
                mrrAtStart: string;
                /** @description MRR of subscriptions cancelled or lapsed in the bucket (paused and completed not included). */
                churnedMrr: string;
                /** @description Cancelled part of churnedMrr. */
                voluntaryChurnedMrr: string;
                /** @description Lapsed part of churnedMrr. */
                involuntaryChurnedMrr: string;
                /** @description churnedMrr / mrrAtStart. */
                mrrChurnRate: string;
            }[];
        };
        ConversionStats: {
            /** @enum {string} */
            interval: "day" | "week" | "month";
            from: string;
            to: string;
            currency: string;
            planId: string | null;
            summary: {
                /** @description Payment sessions created in the bucket; of them, how many are paid (completed) or expired now. */
                paymentSessions: {
                    /** @description A count, as an integer string. */
                    created: string;
                    /** @description A count, as an integer string. */
                    paid: string;
                    /** @description A count, as an integer string. */
                    expired: string;
                    /** @description paid / created. */
                    rate: string;
                };
                /** @description The payment sessions with a product (storefront checkouts). */
                storefront: {
                    /** @description A count, as an integer string. */
                    created: string;
                    /** @description A count, as an integer string. */
                    paid: string;
                    /** @description A count, as an integer string. */
                    expired: string;
                    /** @description paid / created. */
                    rate: string;
                };
                /** @description Invoices sent in the bucket; of them, how many are paid now. */
                invoices: {
                    /** @description A count, as an integer string. */
                    sent: string;
                    /** @description A count, as an integer string. */
                    paid: string;
                    /** @description paid / sent. */
                    rate: string;
                };
                /** @description Subscriptions created with a trial in the bucket; of them, how many have paid since. */
                trials: {
                    /** @description A count, as an integer string. */
                    started: string;
                    /** @description A count, as an integer string. */
                    converted: string;
                    /** @description converted / started. */
                    rate: string;
                };
            };
            series: {
                /** @description First day (UTC, YYYY-MM-DD) of the bucket inside the range. */
                date: string;
                /** @description Payment sessions created in the bucket; of them, how many are paid (completed) or expired now. */
                paymentSessions: {
                    /** @description A count, as an integer string. */
                    created: string;
                    /** @description A count, as an integer string. */
                    paid: string;
                    /** @description A count, as an integer string. */
                    expired: string;
                    /** @description paid / created. */
                    rate: string;
                };
                /** @description The payment sessions with a product (storefront checkouts). */
                storefront: {
                    /** @description A count, as an integer string. */
                    created: string;
                    /** @description A count, as an integer string. */
                    paid: string;
                    /** @description A count, as an integer string. */
                    expired: string;
                    /** @description paid / created. */
                    rate: string;
                };
                /** @description Invoices sent in the bucket; of them, how many are paid now. */
                invoices: {
                    /** @description A count, as an integer string. */
                    sent: string;
                    /** @description A count, as an integer string. */
                    paid: string;
                    /** @description paid / sent. */
                    rate: string;
                };
                /** @description Subscriptions created with a trial in the bucket; of them, how many have paid since. */
                trials: {
                    /** @description A count, as an integer string. */
                    started: string;
                    /** @description A count, as an integer string. */
                    converted: string;
                    /** @description converted / started. */
                    rate: string;
                };
            }[];
        };
        LtvStats: {
            /** @enum {string} */
            interval: "day" | "week" | "month";
            from: string;
            to: string;
            currency: string;
            planId: string | null;
            summary: {
                /** @description MRR at the end of the bucket. */
                mrr: string;
                /** @description Paying customers at the end of the bucket. */
                customers: string;
                /** @description mrr / customers, truncated; 0 without customers. */
                arpa: string;
                /** @description Start of the trailing window: the bucket end minus 3 calendar months. */
                windowStart: string;
                /** @description A count, as an integer string. */
                customersAtWindowStart: string;
                /** @description A count, as an integer string. */
                churnedCustomersInWindow: string;
                /** @description churnedCustomersInWindow / (customersAtWindowStart x 3). */
                monthlyChurnRate: string;
                /** @description arpa x customersAtWindowStart x 3 / churnedCustomersInWindow, truncated; null when nobody churned in the window (no finite lifetime observed) or nobody was paying at its start (no base to measure churn against). */
                ltv: string | null;
                /** @description Observed lifetime revenue of the customers first seen in each month of the range. */
                cohorts: {
                    /** @description First day of the month the customers were first seen. */
                    cohort: string;
                    /** @description A count, as an integer string. */
                    customers: string;
                    /** @description Succeeded charges of those customers up to the end of `to`. */
                    revenue: string;
                    /** @description A count, as an integer string. */
                    charges: string;
                    /** @description revenue / customers, truncated. */
                    revenuePerCustomer: string;
                }[];
            };
            series: {
                /** @description First day (UTC, YYYY-MM-DD) of the bucket inside the range. */
                date: string;
                /** @description MRR at the end of the bucket. */
                mrr: string;
                /** @description Paying customers at the end of the bucket. */
                customers: string;
                /** @description mrr / customers, truncated; 0 without customers. */
                arpa: string;
                /** @description Start of the trailing window: the bucket end minus 3 calendar months. */
                windowStart: string;
                /** @description A count, as an integer string. */
                customersAtWindowStart: string;
                /** @description A count, as an integer string. */
                churnedCustomersInWindow: string;
                /** @description churnedCustomersInWindow / (customersAtWindowStart x 3). */
                monthlyChurnRate: string;
                /** @description arpa x customersAtWindowStart x 3 / churnedCustomersInWindow, truncated; null when nobody churned in the window (no finite lifetime observed) or nobody was paying at its start (no base to measure churn against). */
                ltv: string | null;
            }[];
        };
        ForecastStats: {
            /** @enum {string} */
            interval: "day" | "week" | "month";
            from: string;
            to: string;
            currency: string;
            planId: string | null;
            summary: {
                /** @description MRR of active and at_risk subscriptions at the end of `to` (from the change ledger). */
                mrrNow: string;
                /** @description Sum of the series' cash. */
                projectedCash: string;
                /** @description Integer amount in base units, as a string. */
                projectedMrrAtEnd: string;
                assumptions: {
                    horizon: number;
                    observedFrom: string;
                    observedTo: string;
                    /** @description A count, as an integer string. */
                    customersAtObservedStart: string;
                    /** @description A count, as an integer string. */
                    churnedCustomersObserved: string;
                    /** @description churned x 365 / (customersAtObservedStart x observed days x 12): the observed churn per average month. */
                    monthlyChurnRate: string;
                    notes: string[];
                };
            };
            series: {
                /** @description First day (UTC, YYYY-MM-DD) of the bucket inside the range. */
                date: string;
                /** @description Whole months from the forecast start to the bucket start: the power of the survival factor. */
                monthsAhead: number;
                /** @description (1 - monthlyChurnRate)^monthsAhead. */
                survival: string;
                /** @description Charges due in the bucket by the schedules of live subscriptions, before churn. */
                scheduledCash: string;
                /** @description scheduledCash x survival, truncated. */
                cash: string;
                /** @description MRR of the subscriptions still in their term at the bucket start, before churn. */
                scheduledMrr: string;
                /** @description scheduledMrr x survival, truncated. */
                mrr: string;
            }[];
        };
        PayoutBalance: {
            /** @constant */
            object: "payout_balance";
            /** @description The chain (EIP-155 id): one of the mode's configured chains. */
            chainId: number;
            /** @description The chain's name as the checkout shows it. */
            network: string;
            /** @description USDC on this chain. */
            token: string;
            /** @description The payout address sweeps and relayed payments pay on this chain (null: none set). */
            payoutAddress: string | null;
            /** @description The payout address's USDC balance on this chain now, in base units (null: no payout address, or the chain's node did not answer; see `unavailable`). */
            amount: string | null;
            /** @description True when this chain's node did not answer: the other chains are still listed. */
            unavailable: boolean;
        };
        TestClock: {
            id: string;
            /** @constant */
            object: "test_clock";
            name: string;
            /**
             * Format: date-time
             * @description The clock's time. While `advancing` it is the time it moves from.
             */
            frozenTime: string;
            /**
             * @description `advancing` until the chain and every attached workflow reached `advancingTo`.
             * @enum {string}
             */
            status: "ready" | "advancing" | "deleted";
            advancingTo: string | null;
            wallets: {
                walletAddress: string;
                /**
                 * Format: date-time
                 * @description ISO 8601 timestamp.
                 */
                attachedAt: string;
            }[];
            /** @constant */
            livemode: false;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp.
             */
            createdAt: string;
            deletedAt: string | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listSubscriptionPlans: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`plan_...`) of its last object; the page starts below it. */
                cursor?: string;
                /** @description `false`: only plans not archived; `true`: only archived ones. Absent: all. */
                archived?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SubscriptionPlan"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSubscriptionPlan: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description Charge per period in USDC base units (6 decimals), e.g. "10000000" is 10 USDC. */
                    amount: string;
                    /**
                     * @default USDC
                     * @enum {string}
                     */
                    currency?: "USDC";
                    /** @enum {string} */
                    interval: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
                    /** @default 1 */
                    intervalCount?: number;
                    /** @default 0 */
                    trialPeriodDays?: number;
                    /**
                     * @description When the trial ends and the first charge is refused for funds or allowance: `dunning` retries within the merchant's grace window (`at_risk`, then `lapsed`), `cancel` cancels the subscription at once (on chain too; `subscription.cancelled`, `cancelledBy: system`), `pause` pauses it (`paused`; resuming charges the next period that comes due). A charge refused for another cause (a blacklisted address, a paused token) follows its usual rule. Default `dunning` (the behaviour before the option existed).
                     * @enum {string}
                     */
                    trialEndBehavior?: "dunning" | "cancel" | "pause";
                    /** @description The chains of the mode (EIP-155 ids) the plan is offered on, the first the hosted enrolment page's default; the customer picks one at enrolment. Absent: every chain of the mode (chains configured later too). */
                    chainIds?: number[];
                    /** @description Usage prices billed in arrears, one per meter (1 to 10): `per_unit`, `package`, `graduated` or `volume` tiers. A metered plan needs `usageCap`. */
                    meteredPrices?: components["schemas"]["MeteredPriceInput"][];
                    /** @description Metered plans only (required there): the most pulled on chain per period, which the subscriber authorises at enrolment; at least `amount`. A period whose total is above it is charged the cap and the rest becomes an open invoice. */
                    usageCap?: string;
                    /** @description Metered plans only: how long after a period starts its close waits for late usage events (default 3600, at most 7 days). */
                    usageGracePeriodSeconds?: number;
                    /** @description Metered plans only: bill early. When the usage not yet billed reaches this amount (base units) mid-period, it is invoiced at once (an open invoice, `subscription.usage_threshold_reached`) and the period close bills only the usage after it. Nothing more is pulled on chain. */
                    usageThreshold?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionPlan"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSubscriptionPlan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `plan_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionPlan"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updatePlan: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `plan_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /**
                     * @description When the trial ends and the first charge is refused for funds or allowance: `dunning` retries within the merchant's grace window (`at_risk`, then `lapsed`), `cancel` cancels the subscription at once (on chain too; `subscription.cancelled`, `cancelledBy: system`), `pause` pauses it (`paused`; resuming charges the next period that comes due). A charge refused for another cause (a blacklisted address, a paused token) follows its usual rule.
                     * @enum {string}
                     */
                    trialEndBehavior?: "dunning" | "cancel" | "pause";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionPlan"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    archivePlan: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `plan_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionPlan"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCheckoutPlan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `plan_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutPlan"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCoupons: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`coupon_...`) of its last object; the page starts below it. */
                cursor?: string;
                /** @description Only objects whose metadata holds every given pair, exactly: `metadata[key]=value` (repeat with other keys to require several). */
                metadata?: {
                    [key: string]: string;
                };
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Coupon"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createCoupon: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Shown to the merchant and on receipts and invoices. */
                    name?: string;
                    /** @description Percent taken off each discounted charge, 0.01 to 99.99 with at most two decimals (kept as basis points). The charge is rounded down to a whole base unit, so the customer never pays more than the exact figure. */
                    percentOff?: number;
                    /** @description Amount taken off each discounted charge, in USDC base units; must leave at least 1 base unit of the plan amount. */
                    amountOff?: string;
                    /**
                     * @default USDC
                     * @enum {string}
                     */
                    currency?: "USDC";
                    /**
                     * @description `once`: the next charge only; `repeating`: the next `durationInPeriods` charges; `forever`: every charge while applied.
                     * @enum {string}
                     */
                    duration: "once" | "repeating" | "forever";
                    /** @description Required with `repeating` (and only then): how many charged periods the discount covers. */
                    durationInPeriods?: number;
                    /** @description How many times the coupon may be applied in all. */
                    maxRedemptions?: number;
                    /**
                     * Format: date-time
                     * @description Last moment the coupon may be applied; discounts already applied keep running.
                     */
                    redeemBy?: string;
                    /** @description Only subscriptions to these plans (of the same merchant and mode) may take the coupon; after a change to another plan the discount stays attached but takes nothing off, and those periods do not count toward its duration. */
                    appliesTo?: {
                        planIds: string[];
                    };
                    /** @description Up to 50 keys (1 to 40 characters) of string values (up to 500 characters), kept as given. */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Coupon"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCoupon: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `coupon_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Coupon"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateCoupon: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `coupon_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description Merged into the stored metadata; a key sent as "" is removed. */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Coupon"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteCoupon: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `coupon_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedCoupon"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listBillingMeters: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`mtr_...`) of its last object; the page starts below it. */
                cursor?: string;
                /** @description Only meters in this status. */
                status?: "active" | "inactive";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["BillingMeter"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createBillingMeter: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "displayName": "API tokens",
                 *       "eventName": "api_tokens",
                 *       "aggregation": "sum",
                 *       "valueKey": "tokens",
                 *       "customerMapping": {
                 *         "type": "by_id",
                 *         "eventPayloadKey": "customerId"
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @description Shown to the merchant. */
                    displayName: string;
                    /** @description Unique among the active meters of the merchant and mode. */
                    eventName: string;
                    /**
                     * @description `sum` of the values, `count` of the events, `max` value, `last` value (latest timestamp), `unique_count` of distinct values.
                     * @enum {string}
                     */
                    aggregation: "sum" | "count" | "max" | "last" | "unique_count";
                    /** @description The payload key holding the value; required for every aggregation but `count` (and refused with it). */
                    valueKey?: string;
                    /**
                     * @description Which payload key names the customer, and how. Default: `{ "type": "by_id", "eventPayloadKey": "customerId" }`.
                     * @default {
                     *       "type": "by_id",
                     *       "eventPayloadKey": "customerId"
                     *     }
                     */
                    customerMapping?: {
                        /**
                         * @description `by_id`: the payload key holds our customer id (`cus_...`); `by_wallet`: it holds the customer's wallet address.
                         * @enum {string}
                         */
                        type: "by_id" | "by_wallet";
                        /** @description The payload key that names the customer. */
                        eventPayloadKey: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMeter"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBillingMeter: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `mtr_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMeter"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateBillingMeter: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `mtr_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    displayName?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMeter"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deactivateBillingMeter: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `mtr_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMeter"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reactivateBillingMeter: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `mtr_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMeter"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listBillingMeterEventSummaries: {
        parameters: {
            query: {
                /** @description The customer whose usage is summarised. */
                customerId: string;
                /** @description Inclusive start, on a whole UTC hour (a whole UTC day with `valueGroupingWindow=day`). */
                startTime: string;
                /** @description Exclusive end, aligned like `startTime`; at most 366 days after it. */
                endTime: string;
                /** @description One summary per UTC hour or day that has events; without it, one summary for the whole range. */
                valueGroupingWindow?: "hour" | "day";
            };
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `mtr_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["BillingMeterEventSummary"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createBillingMeterEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "eventName": "api_tokens",
                 *       "identifier": "req_7f3a91",
                 *       "timestamp": "2026-11-27T10:15:00Z",
                 *       "payload": {
                 *         "customerId": "cus_01JFZ6Y1T7N5W3Q8R2M4K6H9XA",
                 *         "tokens": "1250"
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @description The event name of an active meter. */
                    eventName: string;
                    /** @description Unique per merchant and mode: an event with an identifier already accepted is accepted again and ignored. */
                    identifier: string;
                    /**
                     * Format: date-time
                     * @description When the usage happened (default: now). Refused when more than 35 days old or more than 5 minutes ahead.
                     */
                    timestamp?: string;
                    /** @description String values: the meter's customer key (a `cus_...` id or a wallet address) and its value key (a non-negative decimal string such as `"3"` or `"0.25"`, at most 12 decimals; any text for `unique_count`). */
                    payload: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMeterEvent"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createBillingMeterEventBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "events": [
                 *         {
                 *           "eventName": "api_tokens",
                 *           "identifier": "req_7f3a91",
                 *           "timestamp": "2026-11-27T10:15:00Z",
                 *           "payload": {
                 *             "customerId": "cus_01JFZ6Y1T7N5W3Q8R2M4K6H9XA",
                 *             "tokens": "1250"
                 *           }
                 *         },
                 *         {
                 *           "eventName": "api_tokens",
                 *           "identifier": "req_7f3a92",
                 *           "timestamp": "2026-11-27T10:15:00Z",
                 *           "payload": {
                 *             "customerId": "cus_01JFZ6Y1T7N5W3Q8R2M4K6H9XA",
                 *             "tokens": "0.5"
                 *           }
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    /** @description 1 to 100 events. */
                    events: {
                        /** @description The event name of an active meter. */
                        eventName: string;
                        /** @description Unique per merchant and mode: an event with an identifier already accepted is accepted again and ignored. */
                        identifier: string;
                        /**
                         * Format: date-time
                         * @description When the usage happened (default: now). Refused when more than 35 days old or more than 5 minutes ahead.
                         */
                        timestamp?: string;
                        /** @description String values: the meter's customer key (a `cus_...` id or a wallet address) and its value key (a non-negative decimal string such as `"3"` or `"0.25"`, at most 12 decimals; any text for `unique_count`). */
                        payload: {
                            [key: string]: string;
                        };
                    }[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMeterEventBatch"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelBillingMeterEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The identifier of an event accepted in the last 24 hours. */
                    identifier: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMeterEventCancellation"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPromotionCodes: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`promo_...`) of its last object; the page starts below it. */
                cursor?: string;
                /** @description Only the code with this text (any letter case). */
                code?: string;
                /** @description Only codes of this coupon. */
                coupon?: string;
                /** @description `true`: only active codes; `false`: only inactive ones. Absent: all. */
                active?: "true" | "false";
                /** @description Only objects whose metadata holds every given pair, exactly: `metadata[key]=value` (repeat with other keys to require several). */
                metadata?: {
                    [key: string]: string;
                };
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PromotionCode"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPromotionCode: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The coupon the code applies. */
                    coupon: string;
                    /** @description Unique per merchant and mode whatever the case; absent: a random 8-character code is generated. */
                    code?: string;
                    /** @default true */
                    active?: boolean;
                    /**
                     * Format: date-time
                     * @description After this moment the code is refused.
                     */
                    expiresAt?: string;
                    /**
                     * @description Only for first-time customers: a wallet none of the merchant's subscriptions in this mode has charged and that has paid no payment session.
                     * @default false
                     */
                    firstTimeTransaction?: boolean;
                    /** @description How many times this code may be redeemed. */
                    maxRedemptions?: number;
                    /** @description Up to 50 keys (1 to 40 characters) of string values (up to 500 characters), kept as given. */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PromotionCode"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPromotionCode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `promo_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PromotionCode"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updatePromotionCode: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `promo_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description An inactive code is refused; it can be made active again. */
                    active?: boolean;
                    /** @description Merged into the stored metadata; a key sent as "" is removed. */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PromotionCode"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    applySubscriptionDiscount: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `sub_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Apply this coupon directly. */
                    coupon?: string;
                    /** @description Redeem this promotion code (its id) for the coupon it carries. */
                    promotionCode?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeSubscriptionDiscount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `sub_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    changeSubscriptionPlan: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `sub_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A plan of the same merchant and mode, with the same interval, offered on the subscription’s chain. The current plan cancels a pending change. */
                    planId: string;
                    /**
                     * @description `create_prorations` (default): an upgrade adds the prorated difference for the rest of the period to the next charge; `none`: no proration. `always_invoice` is refused: the contract pulls once per period, so nothing can be charged before the next period starts.
                     * @default create_prorations
                     * @enum {string}
                     */
                    prorationBehavior?: "create_prorations" | "always_invoice" | "none";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    syncMerchant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Display name; defaults to the token's `name` claim, then its email. */
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Merchant"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMerchant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Merchant"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getLiveModeEligibility: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LiveModeEligibility"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startEmailVerification: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Sets (or changes) the owner email first; defaults to the current one. */
                    email?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        object: "email_verification";
                        /** @description Where the 6-digit code was sent. */
                        email: string;
                        /**
                         * Format: date-time
                         * @description The code is valid until then (15 minutes) and for 5 attempts.
                         */
                        expiresAt: string;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    confirmEmailVerification: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The 6-digit code. */
                    code: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Merchant"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startTwoFactorEnrolment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        object: "two_factor_enrolment";
                        /** @description Base32 TOTP secret (shown once; enter it in an authenticator app). */
                        secret: string;
                        /** @description `otpauth://totp/...` URI for a QR code. */
                        otpauthUri: string;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    confirmTwoFactorEnrolment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The 6-digit code. */
                    code: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Merchant"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pinApiVersion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description A dated version this deployment serves; used for every request of this merchant that sends no Service-Version header.
                     * @enum {string}
                     */
                    apiVersion: "2026-04-27";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Merchant"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setAllowedOrigins: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Up to 20 origins whose web pages may use publishable keys, or `["*"]` for any origin. Replaces the list; `[]` allows no browser origin. */
                    allowedOrigins: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Merchant"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    submitBusinessProfile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    businessName: string;
                    /** @enum {string} */
                    sector: "saas" | "ecommerce" | "marketplace" | "digital_goods" | "gaming" | "financial_services" | "education" | "nonprofit" | "professional_services" | "media" | "travel" | "other";
                    /** @description ISO 3166-1 alpha-2 country code, e.g. `DE`. */
                    country: string;
                    /** @description EVM address receiving payouts; stored EIP-55 checksummed. */
                    payoutAddress: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Merchant"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAcceptedChains: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AcceptedChains"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setAcceptedChains: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The chains (EIP-155 ids) new sessions of this mode accept by default: each one of this mode's configured chains (`chains` of GET). null: every chain of the mode. A session may still name its own `acceptedChainIds`, among these. */
                    acceptedChainIds: number[] | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AcceptedChains"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listChainPayouts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One entry per configured chain of the request's mode, in configuration order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["ChainPayout"][];
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setChainPayout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The chain (EIP-155 id): one of the configured chains of the request's mode. */
                chainId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The address that receives this chain's payments; stored EIP-55 checksummed. null: the chain pays the account's payout address again. Sessions created before keep the address they were created with. */
                    payoutAddress: string | null;
                };
            };
        };
        responses: {
            /** @description One entry per configured chain of the request's mode, in configuration order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["ChainPayout"][];
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReceiptSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReceiptSettings"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setReceiptSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The switches to change; the others keep their value. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description Email a receipt when a payment session is paid (not one backing an invoice: `invoice` covers it). */
                    payment?: boolean;
                    /** @description Email a receipt for each succeeded subscription charge, with the discount line where there is one. */
                    subscriptionCharge?: boolean;
                    /** @description Email a receipt when a refund succeeded on chain. */
                    refund?: boolean;
                    /** @description Email a receipt when an invoice is paid. */
                    invoice?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReceiptSettings"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`key_...`) of its last object; the page starts below it. */
                cursor?: string;
                /** @description Only keys of this mode. */
                mode?: "test" | "live";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiKey"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description `live` needs live-mode eligibility (GET /v1/merchants/me/live-mode-eligibility).
                     * @enum {string}
                     */
                    mode: "test" | "live";
                    /**
                     * @default secret
                     * @enum {string}
                     */
                    kind?: "secret" | "publishable";
                    /**
                     * @description A label for the dashboard.
                     * @default
                     */
                    name?: string;
                    /** @description Explicit scopes; exactly one of `scopes` or `preset`. */
                    scopes?: ("agents_read" | "agents_write" | "analytics_read" | "invoices_read" | "invoices_write" | "payment_sessions_read" | "payment_sessions_write" | "plans_read" | "plans_write" | "refunds_read" | "refunds_write" | "relay_read" | "relay_write" | "storefront_write" | "subscriptions_read" | "subscriptions_write" | "webhooks_read" | "webhooks_write")[];
                    /**
                     * @description `read-only`, `checkout-only` or `full`. Publishable keys default to `checkout-only`.
                     * @enum {string}
                     */
                    preset?: "read-only" | "checkout-only" | "full";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedApiKey"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApiKeysAuditLog: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`kal_...`) of its last object; the page starts below it. */
                cursor?: string;
                /** @description Only entries of this key. */
                apiKeyId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiKeyAuditEntry"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `key_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Recorded in the audit log; default `revoked_by_merchant`. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revealApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `key_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedApiKey"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`we_...`) of its last object; the page starts below it. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookEndpoint"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description An https:// URL whose host resolves only to public addresses (checked at registration and on every delivery). */
                    url: string;
                    /** @description Event kinds to receive; `*` for all. */
                    events: ("*" | "invoice.created" | "invoice.sent" | "invoice.paid" | "invoice.overdue" | "invoice.updated" | "subscription.created" | "subscription.charged" | "subscription.charge_failed" | "subscription.cancelled" | "subscription.lapsed" | "subscription.updated" | "subscription.trial_will_end" | "subscription.usage_over_cap" | "subscription.final_usage_invoiced" | "subscription.usage_threshold_reached" | "agent.action_executed" | "agent.job_proposed" | "agent.job_completed" | "agent.job_disputed" | "agent.job_failed" | "payment.completed" | "payment.failed" | "payment.partially_paid" | "payment.overpaid" | "payment.late_deposit" | "payment.deposit_reversed" | "payment.deposit_sweep_blocked" | "refund.created" | "refund.succeeded" | "refund.failed" | "refund.updated" | "subscription_plan.created" | "subscription_plan.updated" | "subscription_plan.archived" | "storefront.updated" | "product.created" | "product.updated" | "product.archived" | "coupon.created" | "coupon.updated" | "coupon.deleted" | "promotion_code.created" | "promotion_code.updated" | "customer.discount.created" | "customer.discount.deleted" | "billing_portal.session.created" | "customer.updated")[];
                    /**
                     * @description Must match the mode of the key used (defaults to it); an endpoint receives events of its mode only.
                     * @enum {string}
                     */
                    mode?: "test" | "live";
                    /** @default  */
                    description?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `we_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    disableWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `we_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    enableWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `we_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateWebhookEndpointSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `we_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    testWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `we_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The kind of the test event (default `webhook_endpoint.test`). For any other kind, `data` is a copy of the newest test-mode event of that kind of the merchant (so its shape is real and no live object is ever named), with `data.test` = true; when there is none yet, `data.object` is null.
                     * @default webhook_endpoint.test
                     * @enum {string}
                     */
                    type?: "webhook_endpoint.test" | "invoice.created" | "invoice.sent" | "invoice.paid" | "invoice.overdue" | "invoice.updated" | "subscription.created" | "subscription.charged" | "subscription.charge_failed" | "subscription.cancelled" | "subscription.lapsed" | "subscription.updated" | "subscription.trial_will_end" | "subscription.usage_over_cap" | "subscription.final_usage_invoiced" | "subscription.usage_threshold_reached" | "agent.action_executed" | "agent.job_proposed" | "agent.job_completed" | "agent.job_disputed" | "agent.job_failed" | "payment.completed" | "payment.failed" | "payment.partially_paid" | "payment.overpaid" | "payment.late_deposit" | "payment.deposit_reversed" | "payment.deposit_sweep_blocked" | "refund.created" | "refund.succeeded" | "refund.failed" | "refund.updated" | "subscription_plan.created" | "subscription_plan.updated" | "subscription_plan.archived" | "storefront.updated" | "product.created" | "product.updated" | "product.archived" | "coupon.created" | "coupon.updated" | "coupon.deleted" | "promotion_code.created" | "promotion_code.updated" | "customer.discount.created" | "customer.discount.deleted" | "billing_portal.session.created" | "customer.updated";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTestEvent"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `wdl_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`wdl_...`) of its last object; the page starts below it. */
                cursor?: string;
                /** @description Identifier (prefix `we_`). */
                endpointId?: string;
                status?: "sending" | "interrupted" | "succeeded" | "failed" | "permanently_failed";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    replayWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `wdl_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookReplay"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhookListener: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Event kinds to receive; default `*`.
                     * @default [
                     *       "*"
                     *     ]
                     */
                    events?: ("*" | "invoice.created" | "invoice.sent" | "invoice.paid" | "invoice.overdue" | "invoice.updated" | "subscription.created" | "subscription.charged" | "subscription.charge_failed" | "subscription.cancelled" | "subscription.lapsed" | "subscription.updated" | "subscription.trial_will_end" | "subscription.usage_over_cap" | "subscription.final_usage_invoiced" | "subscription.usage_threshold_reached" | "agent.action_executed" | "agent.job_proposed" | "agent.job_completed" | "agent.job_disputed" | "agent.job_failed" | "payment.completed" | "payment.failed" | "payment.partially_paid" | "payment.overpaid" | "payment.late_deposit" | "payment.deposit_reversed" | "payment.deposit_sweep_blocked" | "refund.created" | "refund.succeeded" | "refund.failed" | "refund.updated" | "subscription_plan.created" | "subscription_plan.updated" | "subscription_plan.archived" | "storefront.updated" | "product.created" | "product.updated" | "product.archived" | "coupon.created" | "coupon.updated" | "coupon.deleted" | "promotion_code.created" | "promotion_code.updated" | "customer.discount.created" | "customer.discount.deleted" | "billing_portal.session.created" | "customer.updated")[];
                    /** @description Where the CLI forwards deliveries, for display only (the service never calls it): shown as `url` = `listener:<forwardTo>`. */
                    forwardTo?: string;
                    /** @default  */
                    description?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookListener"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamWebhookListener: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `we_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A text/event-stream. `event: ready` once, then `event: delivery` per delivery attempt (id = the request id; data = JSON `{requestId, eventId, eventType, attempt, headers, body}` where `headers` are the Standard Webhooks headers and `body` the signed bytes in base64), and a `: keepalive` comment every 10 seconds. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": {
                        /** @enum {string} */
                        event: "ready" | "delivery";
                        /** @description JSON text: `{listenerId, sessionId}` (ready) or the delivery (delivery). */
                        data: string;
                        /** @description The delivery request id (delivery events). */
                        id?: string;
                        retry?: number;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    answerWebhookListenerRequest: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `we_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Identifier (prefix `wlr_`). */
                    requestId: string;
                    /** @description The local receiver's HTTP status, or null when it gave no response. */
                    status: number | null;
                    /**
                     * @description The start of the local response body (stored up to 1024 bytes).
                     * @default null
                     */
                    bodyExcerpt?: string | null;
                    /**
                     * @description Why no response arrived (connection refused, timeout).
                     * @default null
                     */
                    error?: string | null;
                    durationMs: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookListenerAnswer"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`evt_...`) of its last object; the page starts below it. */
                cursor?: string;
                /** @description Only events of this exact kind. */
                type?: "invoice.created" | "invoice.sent" | "invoice.paid" | "invoice.overdue" | "invoice.updated" | "subscription.created" | "subscription.charged" | "subscription.charge_failed" | "subscription.cancelled" | "subscription.lapsed" | "subscription.updated" | "subscription.trial_will_end" | "subscription.usage_over_cap" | "subscription.final_usage_invoiced" | "subscription.usage_threshold_reached" | "agent.action_executed" | "agent.job_proposed" | "agent.job_completed" | "agent.job_disputed" | "agent.job_failed" | "payment.completed" | "payment.failed" | "payment.partially_paid" | "payment.overpaid" | "payment.late_deposit" | "payment.deposit_reversed" | "payment.deposit_sweep_blocked" | "refund.created" | "refund.succeeded" | "refund.failed" | "refund.updated" | "subscription_plan.created" | "subscription_plan.updated" | "subscription_plan.archived" | "storefront.updated" | "product.created" | "product.updated" | "product.archived" | "coupon.created" | "coupon.updated" | "coupon.deleted" | "promotion_code.created" | "promotion_code.updated" | "customer.discount.created" | "customer.discount.deleted" | "billing_portal.session.created" | "customer.updated" | "webhook_endpoint.test";
                /** @description An object id (`ps_...`, `sub_...`, `inv_...`, `cus_...`, `re_...`, ...): the events about that object, and the events that name it as their related object (a subscription's `subscription.charged`, the session of an invoice). */
                objectId?: string;
                /** @description Test mode: only the events a test clock produced (`data.testClock`), such as the timeline of its advances. */
                testClock?: string;
                /** @description Only objects created at or after this time (inclusive). */
                createdFrom?: string;
                /** @description Only objects created before this time (exclusive). */
                createdTo?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventList"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `evt_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventWithDeliveries"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCustomers: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`cus_...`) of its last object; the page starts below it. */
                cursor?: string;
                /** @description Only the customer of this wallet (any letter case). */
                walletAddress?: string;
                /** @description Only customers with this email (case-insensitive). */
                email?: string;
                /** @description Only objects whose metadata holds every given pair, exactly: `metadata[key]=value` (repeat with other keys to require several). */
                metadata?: {
                    [key: string]: string;
                };
                /** @description Only objects created at or after this time (inclusive). */
                createdFrom?: string;
                /** @description Only objects created before this time (exclusive). */
                createdTo?: string;
                /** @description Search: the customer id, the wallet address (any letter case), or the start of the email (case-insensitive prefix). */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Customer"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCustomer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `cus_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createCustomer: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `cus_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Merged into the stored metadata; a key sent as "" is removed. */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTokenByAddress: {
        parameters: {
            query?: {
                /** @description Which chain to read: `test` (default) or `live`. Public reads carry no key, so the mode is chosen here. */
                mode?: "test" | "live";
                /** @description Which of the mode's chains to read (EIP-155 id); default: the mode's first chain. */
                chainId?: number;
            };
            header?: never;
            path: {
                /** @description An EVM address, 0x-prefixed hex (any letter case). */
                address: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTokenPermitNonce: {
        parameters: {
            query: {
                /** @description An EVM address, 0x-prefixed hex (any letter case). */
                owner: string;
                /** @description Which chain to read: `test` (default) or `live`. Public reads carry no key, so the mode is chosen here. */
                mode?: "test" | "live";
                /** @description Which of the mode's chains to read (EIP-155 id); default: the mode's first chain. */
                chainId?: number;
            };
            header?: never;
            path: {
                /** @description An EVM address, 0x-prefixed hex (any letter case). */
                address: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermitNonce"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createRelayPayment: {
        parameters: {
            query?: never;
            header: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The chain to send on (EIP-155 id): one of the mode's configured chains, and one the payment session accepts when one is named. Default: the mode's first chain. The authorization must be signed for this chain's USDC (its EIP-712 domain names the chain). */
                    chainId?: number;
                    /** @description The token's address; defaults to the mode's configured USDC and must equal it. */
                    token?: string;
                    /** @description The EIP-3009 TransferWithAuthorization message the payer signed. */
                    authorization: {
                        /** @description The payer: the address that signed the authorization. */
                        from: string;
                        /** @description The recipient: the merchant's payout address, or the payTo of the payment session named by paymentSessionId. */
                        to: string;
                        /** @description A positive integer amount in the smallest unit (USDC has 6 decimals), as a string. */
                        value: string;
                        /** @description Unix seconds; the authorization is valid strictly after this time. */
                        validAfter: string;
                        /** @description Unix seconds; the authorization is valid strictly before this time. */
                        validBefore: string;
                        /** @description The EIP-3009 nonce the payer chose (random 32 bytes). */
                        nonce: string;
                    };
                    /** @description The EIP-712 signature as 0x-prefixed hex: 65 bytes (r || s || v) from an EOA, sent through transferWithAuthorization(..., v, r, s); or an ERC-1271 contract wallet's signature (authorization.from is the wallet; any other length is sent through transferWithAuthorization(..., bytes signature)). Checked before sending: it must recover authorization.from, or the wallet's isValidSignature must accept it. */
                    signature: string;
                    /** @description Pay this payment session: it must be open and unexpired, and the authorization must pay exactly what remains due (its amount, less what transfers to its deposit address already paid: `deposit.amountRemaining`) to its payTo. The session turns `processing` now and `completed` when this submission confirms on-chain (`open` again if it fails). */
                    paymentSessionId?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RelaySubmission"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createRelaySubscription: {
        parameters: {
            query?: never;
            header: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The chain to enrol on (EIP-155 id): one of the mode's configured chains. Default: the mode's first chain. The terms name that chain's USDC, and the permit and the enrolment must be signed for it (their EIP-712 domains name the chain): a signature for another chain is refused (`permit.signature` or `enrolment.signature`) before anything is sent. When the terms are those of a plan of the merchant, one of them must be offered on this chain (else `chainId` is refused). The subscription lives and is charged on this chain. */
                    chainId?: number;
                    /** @description The wallet that enrols; it signed both the permit and the enrolment. */
                    subscriber: string;
                    /** @description The enrolment terms, exactly as the subscriber signed them (EIP-712 Enrolment of SubscriptionManagerV2, domain version 2). */
                    terms: {
                        /** @description The token; must be the mode's configured USDC. */
                        token: string;
                        /** @description Payee of every charge: must be the merchant's payout address. */
                        merchant: string;
                        /** @description Who may charge; defaults to and must equal the service's operator for this mode. */
                        operator?: string;
                        /** @description Maximum charge per period, in base units. */
                        amount: string;
                        /** @description Period length in seconds (uint64). */
                        period: string;
                        /** @description Number of chargeable periods; 0 means open-ended (uint32). */
                        periods: number;
                        /**
                         * @description Unix seconds; period 0 starts at max(enrolment time, trialEnd) (uint64).
                         * @default 0
                         */
                        trialEnd?: string;
                        /** @description Seconds after a period's start during which it may be charged (uint64; SubscriptionManagerV2). The platform records an enrolment only with its plan's window: period + the calendar drift, to the hour (the hosted enrolment offer names it). */
                        chargeWindow: string;
                    };
                    /** @description The subscriber's EIP-2612 permit for the SubscriptionManager, signed at the nonce GET /v1/tokens/{address}/permit-nonce returns. */
                    permit: {
                        /** @description Allowance granted to the SubscriptionManager. */
                        value: string;
                        /** @description Unix seconds after which the permit is invalid. */
                        deadline: string;
                        /** @description The EIP-712 signature, 65 bytes as 0x-prefixed hex (r || s || v). */
                        signature: string;
                    };
                    /** @description The subscriber's EIP-712 Enrolment signature over the terms. */
                    enrolment: {
                        /** @description Random 32-byte enrolment nonce chosen by the subscriber. */
                        nonce: string;
                        /** @description Unix seconds after which the enrolment signature is invalid. */
                        deadline: string;
                        /** @description The EIP-712 signature, 65 bytes as 0x-prefixed hex (r || s || v). */
                        signature: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RelaySubmission"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRelaySubmissionByIdempotencyKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The Idempotency-Key of the relay POST. */
                idempotencyKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RelaySubmission"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getX402Supported: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["X402SupportedResponse"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    verifyX402Payment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["X402FacilitatorRequestInput"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["X402VerifyResponse"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    settleX402Payment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["X402FacilitatorRequestInput"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["X402SettleResponse"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    payCheckout: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier (prefix `ps_`). */
                id: string;
            };
            cookie?: never;
        };
        /** @description What the hosted checkout page posts after the customer's wallet signed: the EIP-3009 TransferWithAuthorization message and its signature, and the chain it was signed for (one of the session's `acceptedChainIds`; default its first). The server relays it for the session's merchant on that chain; no key is involved on the page. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description The EIP-3009 TransferWithAuthorization message the payer signed. */
                    authorization: {
                        /** @description The payer: the address that signed the authorization. */
                        from: string;
                        /** @description The recipient: the merchant's payout address, or the payTo of the payment session named by paymentSessionId. */
                        to: string;
                        /** @description A positive integer amount in the smallest unit (USDC has 6 decimals), as a string. */
                        value: string;
                        /** @description Unix seconds; the authorization is valid strictly after this time. */
                        validAfter: string;
                        /** @description Unix seconds; the authorization is valid strictly before this time. */
                        validBefore: string;
                        /** @description The EIP-3009 nonce the payer chose (random 32 bytes). */
                        nonce: string;
                    };
                    /** @description The EIP-712 signature as 0x-prefixed hex: 65 bytes (r || s || v) from an EOA, sent through transferWithAuthorization(..., v, r, s); or an ERC-1271 contract wallet's signature (authorization.from is the wallet; any other length is sent through transferWithAuthorization(..., bytes signature)). Checked before sending: it must recover authorization.from, or the wallet's isValidSignature must accept it. */
                    signature: string;
                    /** @description The chain to send on (EIP-155 id): one of the mode's configured chains, and one the payment session accepts when one is named. Default: the mode's first chain. The authorization must be signed for this chain's USDC (its EIP-712 domain names the chain). */
                    chainId?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutPayment"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    customerCheckoutEmail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier (prefix `ps_`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The payer's email. Kept on the session; copied to the paying wallet's customer only when it has none. */
                    email: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutCustomerEmail"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCheckoutPaymentByNonce: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier (prefix `ps_`). */
                id: string;
                /** @description The authorization nonce the page signed. */
                nonce: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutPayment"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCheckoutPlanEnrolment: {
        parameters: {
            query?: {
                /** @description The chain to enrol on: one of the offer's `chains` (the plan's `chainIds`, else every chain of the mode); default: the plan's first. */
                chainId?: number;
                /** @description The subscriber's wallet, once the page knows it. A test-mode wallet attached to a test clock with a chain of its own (TEST_CLOCK_CHAINS=fork) is offered the clock's chain only (`chainId` and `chains` name it), where the clock's time runs and its charges go; a plan restricted to named chains is then refused (`invalid_request`, param `wallet`). Any other wallet gets the plan's chains. */
                wallet?: string;
                /** @description A promotion code to preview (any letter case): the offer's `discount` shows what each discounted period pulls and for how many. Refused as the enrolment refuses it (`invalid_request`, param `promotionCode`), except the first-time-customer rule, which needs the wallet and is checked at enrolment. */
                promotionCode?: string;
            };
            header?: never;
            path: {
                /** @description Identifier (prefix `plan_`). */
                planId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutEnrolmentOffer"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    enrolCheckoutPlan: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier (prefix `plan_`). */
                planId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The chain the subscriber chose and signed for: one the plan is offered on (GET /checkout/plans/{planId}/enrolment lists them in `chains`); default: the plan's first. Another chain is refused (`chainId`), and signatures made for another chain than this one are refused (`permit.signature`, `enrolment.signature`), before anything is relayed. */
                    chainId?: number;
                    /** @description The wallet that enrols; it signed both the permit and the enrolment. */
                    subscriber: string;
                    /** @description The enrolment terms, exactly as the subscriber signed them (EIP-712 Enrolment of SubscriptionManagerV2, domain version 2). */
                    terms: {
                        /** @description The token; must be the mode's configured USDC. */
                        token: string;
                        /** @description Payee of every charge: must be the merchant's payout address. */
                        merchant: string;
                        /** @description Who may charge; defaults to and must equal the service's operator for this mode. */
                        operator?: string;
                        /** @description Maximum charge per period, in base units. */
                        amount: string;
                        /** @description Period length in seconds (uint64). */
                        period: string;
                        /** @description Number of chargeable periods; 0 means open-ended (uint32). */
                        periods: number;
                        /**
                         * @description Unix seconds; period 0 starts at max(enrolment time, trialEnd) (uint64).
                         * @default 0
                         */
                        trialEnd?: string;
                        /** @description Seconds after a period's start during which it may be charged (uint64; SubscriptionManagerV2). The platform records an enrolment only with its plan's window: period + the calendar drift, to the hour (the hosted enrolment offer names it). */
                        chargeWindow: string;
                    };
                    /** @description The subscriber's EIP-2612 permit for the SubscriptionManager, signed at the nonce GET /v1/tokens/{address}/permit-nonce returns. */
                    permit: {
                        /** @description Allowance granted to the SubscriptionManager. */
                        value: string;
                        /** @description Unix seconds after which the permit is invalid. */
                        deadline: string;
                        /** @description The EIP-712 signature, 65 bytes as 0x-prefixed hex (r || s || v). */
                        signature: string;
                    };
                    /** @description The subscriber's EIP-712 Enrolment signature over the terms. */
                    enrolment: {
                        /** @description Random 32-byte enrolment nonce chosen by the subscriber. */
                        nonce: string;
                        /** @description Unix seconds after which the enrolment signature is invalid. */
                        deadline: string;
                        /** @description The EIP-712 signature, 65 bytes as 0x-prefixed hex (r || s || v). */
                        signature: string;
                    };
                    /** @description Optional. Where the "renew your authorisation" email goes when the permitted allowance runs low. Kept on the wallet's customer; the first one given wins. */
                    customerEmail?: string;
                    /** @description Optional. A promotion code of the plan's merchant (any letter case). Checked before the relay (refused with `invalid_request`, param `promotionCode`); redeemed when the subscription is projected, so each charge pulls the discounted amount. The signed terms stay the plan's amount, the cap, so the discount needs no other signature. */
                    promotionCode?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutEnrolment"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCheckoutPlanEnrolmentByNonce: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier (prefix `plan_`). */
                planId: string;
                /** @description The enrolment nonce the page chose. */
                nonce: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutEnrolment"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCheckoutPlanChangeReauthorisation: {
        parameters: {
            query: {
                /** @description The capability from the change's `hostedUrl` (its `token` query parameter): good for that change only. */
                token: string;
            };
            header?: never;
            path: {
                /** @description Identifier (prefix `spc_`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutReauthorisationOffer"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCheckoutPlanChangeStatus: {
        parameters: {
            query: {
                /** @description The capability from the change's `hostedUrl` (its `token` query parameter): good for that change only. */
                token: string;
            };
            header?: never;
            path: {
                /** @description Identifier (prefix `spc_`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutReauthorisationStatus"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reauthoriseCheckoutPlanChange: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier (prefix `spc_`). */
                id: string;
            };
            cookie?: never;
        };
        /** @description What the approval page posts after the wallet signed: the permit and Enrolment of the offer's exact terms, by the offer's `subscriber`, and the link's token. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description The chain to enrol on (EIP-155 id): one of the mode's configured chains. Default: the mode's first chain. The terms name that chain's USDC, and the permit and the enrolment must be signed for it (their EIP-712 domains name the chain): a signature for another chain is refused (`permit.signature` or `enrolment.signature`) before anything is sent. When the terms are those of a plan of the merchant, one of them must be offered on this chain (else `chainId` is refused). The subscription lives and is charged on this chain. */
                    chainId?: number;
                    /** @description The wallet that enrols; it signed both the permit and the enrolment. */
                    subscriber: string;
                    /** @description The enrolment terms, exactly as the subscriber signed them (EIP-712 Enrolment of SubscriptionManagerV2, domain version 2). */
                    terms: {
                        /** @description The token; must be the mode's configured USDC. */
                        token: string;
                        /** @description Payee of every charge: must be the merchant's payout address. */
                        merchant: string;
                        /** @description Who may charge; defaults to and must equal the service's operator for this mode. */
                        operator?: string;
                        /** @description Maximum charge per period, in base units. */
                        amount: string;
                        /** @description Period length in seconds (uint64). */
                        period: string;
                        /** @description Number of chargeable periods; 0 means open-ended (uint32). */
                        periods: number;
                        /**
                         * @description Unix seconds; period 0 starts at max(enrolment time, trialEnd) (uint64).
                         * @default 0
                         */
                        trialEnd?: string;
                        /** @description Seconds after a period's start during which it may be charged (uint64; SubscriptionManagerV2). The platform records an enrolment only with its plan's window: period + the calendar drift, to the hour (the hosted enrolment offer names it). */
                        chargeWindow: string;
                    };
                    /** @description The subscriber's EIP-2612 permit for the SubscriptionManager, signed at the nonce GET /v1/tokens/{address}/permit-nonce returns. */
                    permit: {
                        /** @description Allowance granted to the SubscriptionManager. */
                        value: string;
                        /** @description Unix seconds after which the permit is invalid. */
                        deadline: string;
                        /** @description The EIP-712 signature, 65 bytes as 0x-prefixed hex (r || s || v). */
                        signature: string;
                    };
                    /** @description The subscriber's EIP-712 Enrolment signature over the terms. */
                    enrolment: {
                        /** @description Random 32-byte enrolment nonce chosen by the subscriber. */
                        nonce: string;
                        /** @description Unix seconds after which the enrolment signature is invalid. */
                        deadline: string;
                        /** @description The EIP-712 signature, 65 bytes as 0x-prefixed hex (r || s || v). */
                        signature: string;
                    };
                    /** @description The capability from the change's `hostedUrl` (its `token` query parameter): good for that change only. */
                    token: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutReauthorisation"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCheckoutWalletChangeReauthorisation: {
        parameters: {
            query: {
                /** @description The capability from the change's `hostedUrl` (its `token` query parameter): good for that change only. */
                token: string;
            };
            header?: never;
            path: {
                /** @description Identifier (prefix `swc_`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutReauthorisationOffer"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCheckoutWalletChangeStatus: {
        parameters: {
            query: {
                /** @description The capability from the change's `hostedUrl` (its `token` query parameter): good for that change only. */
                token: string;
            };
            header?: never;
            path: {
                /** @description Identifier (prefix `swc_`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutReauthorisationStatus"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reauthoriseCheckoutWalletChange: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier (prefix `swc_`). */
                id: string;
            };
            cookie?: never;
        };
        /** @description What the approval page posts after the wallet signed: the permit and Enrolment of the offer's exact terms, by the offer's `subscriber`, and the link's token. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description The chain to enrol on (EIP-155 id): one of the mode's configured chains. Default: the mode's first chain. The terms name that chain's USDC, and the permit and the enrolment must be signed for it (their EIP-712 domains name the chain): a signature for another chain is refused (`permit.signature` or `enrolment.signature`) before anything is sent. When the terms are those of a plan of the merchant, one of them must be offered on this chain (else `chainId` is refused). The subscription lives and is charged on this chain. */
                    chainId?: number;
                    /** @description The wallet that enrols; it signed both the permit and the enrolment. */
                    subscriber: string;
                    /** @description The enrolment terms, exactly as the subscriber signed them (EIP-712 Enrolment of SubscriptionManagerV2, domain version 2). */
                    terms: {
                        /** @description The token; must be the mode's configured USDC. */
                        token: string;
                        /** @description Payee of every charge: must be the merchant's payout address. */
                        merchant: string;
                        /** @description Who may charge; defaults to and must equal the service's operator for this mode. */
                        operator?: string;
                        /** @description Maximum charge per period, in base units. */
                        amount: string;
                        /** @description Period length in seconds (uint64). */
                        period: string;
                        /** @description Number of chargeable periods; 0 means open-ended (uint32). */
                        periods: number;
                        /**
                         * @description Unix seconds; period 0 starts at max(enrolment time, trialEnd) (uint64).
                         * @default 0
                         */
                        trialEnd?: string;
                        /** @description Seconds after a period's start during which it may be charged (uint64; SubscriptionManagerV2). The platform records an enrolment only with its plan's window: period + the calendar drift, to the hour (the hosted enrolment offer names it). */
                        chargeWindow: string;
                    };
                    /** @description The subscriber's EIP-2612 permit for the SubscriptionManager, signed at the nonce GET /v1/tokens/{address}/permit-nonce returns. */
                    permit: {
                        /** @description Allowance granted to the SubscriptionManager. */
                        value: string;
                        /** @description Unix seconds after which the permit is invalid. */
                        deadline: string;
                        /** @description The EIP-712 signature, 65 bytes as 0x-prefixed hex (r || s || v). */
                        signature: string;
                    };
                    /** @description The subscriber's EIP-712 Enrolment signature over the terms. */
                    enrolment: {
                        /** @description Random 32-byte enrolment nonce chosen by the subscriber. */
                        nonce: string;
                        /** @description Unix seconds after which the enrolment signature is invalid. */
                        deadline: string;
                        /** @description The EIP-712 signature, 65 bytes as 0x-prefixed hex (r || s || v). */
                        signature: string;
                    };
                    /** @description The capability from the change's `hostedUrl` (its `token` query parameter): good for that change only. */
                    token: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutReauthorisation"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCheckoutSubscriptionRenewal: {
        parameters: {
            query: {
                /** @description The capability from the renewal link the customer was emailed. */
                token: string;
            };
            header?: never;
            path: {
                /** @description Identifier (prefix `sub_`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutRenewalOffer"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    renewCheckoutSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier (prefix `sub_`). */
                id: string;
            };
            cookie?: never;
        };
        /** @description What the hosted renewal page posts after the wallet signed. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description The capability from the renewal link the customer was emailed. */
                    token: string;
                    /** @description The subscriber's EIP-2612 permit for the SubscriptionManager at the current permit nonce (as GET /checkout/subscriptions/{id}/renewal offers it). It replaces the allowance, so it must raise it. */
                    permit: {
                        /** @description Allowance granted to the SubscriptionManager. */
                        value: string;
                        /** @description Unix seconds after which the permit is invalid. */
                        deadline: string;
                        /** @description The EIP-712 signature, 65 bytes as 0x-prefixed hex (r || s || v). */
                        signature: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutRenewal"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCheckoutSubscriptionRenewalByNonce: {
        parameters: {
            query: {
                /** @description The capability from the renewal link the customer was emailed. */
                token: string;
            };
            header?: never;
            path: {
                /** @description Identifier (prefix `sub_`). */
                id: string;
                /** @description The permit nonce the renewal was signed at. */
                nonce: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutRenewal"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `sub_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `sub_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Merged into the stored metadata; a key sent as "" is removed. */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSubscriptionPeriodCloses: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`uclose_...`) of its last object; the page starts below it. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `sub_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SubscriptionPeriodClose"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSubscriptionUpcomingInvoice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `sub_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpcomingInvoice"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSubscriptions: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`sub_...`) of its last object; the page starts below it. */
                cursor?: string;
                status?: "trialing" | "active" | "at_risk" | "paused" | "cancelled" | "lapsed" | "completed";
                /** @description Identifier (prefix `plan_`). */
                planId?: string;
                /** @description Only subscriptions on this chain (EIP-155 id): the chain they were enrolled and are charged on. */
                chainId?: number;
                /** @description Only objects whose metadata holds every given pair, exactly: `metadata[key]=value` (repeat with other keys to require several). */
                metadata?: {
                    [key: string]: string;
                };
                /** @description Only objects created at or after this time (inclusive). */
                createdFrom?: string;
                /** @description Only objects created before this time (exclusive). */
                createdTo?: string;
                /** @description Search: the subscription id, the subscriber's wallet address (any letter case), the hash of the transaction that created it (exact), or the start of the customer's email (case-insensitive prefix). */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Subscription"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `sub_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        /** @description Optional; an empty body is accepted. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description Why the merchant cancelled; kept on the subscription and in the event. */
                    reason?: string;
                    /**
                     * @description Why the customer is leaving, as one of Stripe Billing's feedback codes (for churn reports).
                     * @enum {string}
                     */
                    feedback?: "customer_service" | "low_quality" | "missing_features" | "other" | "switched_service" | "too_complex" | "too_expensive" | "unused";
                    /** @description `true`: cancel when the next period comes due instead of now (`cancelAtPeriodEnd`); nothing more is charged, the current period runs to its end. Undo with `POST /v1/subscriptions/{id}/uncancel`. */
                    atPeriodEnd?: boolean;
                } | null;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    uncancelSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `sub_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pauseSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `sub_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resumeSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `sub_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createBillingPortalSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "customerId": "cus_01JD8ZX0000000000000000001",
                 *       "returnUrl": "https://saas.example/account"
                 *     }
                 */
                "application/json": {
                    /** @description The customer (of this merchant and mode) the portal is for. */
                    customerId: string;
                    /**
                     * Format: uri
                     * @description Where the portal's “Return to” link goes: https, or http on localhost in test mode.
                     */
                    returnUrl: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingPortalSession"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBillingPortalConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingPortalConfiguration"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateBillingPortalConfiguration: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "cancel": {
                 *         "mode": "at_period_end",
                 *         "reasons": [
                 *           "too_expensive",
                 *           "unused",
                 *           "other"
                 *         ]
                 *       },
                 *       "planSwitching": {
                 *         "planIds": [
                 *           "plan_01JD8ZX0000000000000000001",
                 *           "plan_01JD8ZX0000000000000000002"
                 *         ]
                 *       },
                 *       "promotionCodes": true,
                 *       "walletChanges": false
                 *     }
                 */
                "application/json": {
                    cancel?: {
                        /**
                         * @description `at_period_end` (default): the customer cancels at the end of the paid period; `now`: at once; `off`: no cancel in the portal.
                         * @enum {string}
                         */
                        mode?: "off" | "now" | "at_period_end";
                        /** @description The reasons the portal offers on cancel (Stripe Billing feedback codes); the customer picks one, and may add a comment. */
                        reasons?: ("customer_service" | "low_quality" | "missing_features" | "other" | "switched_service" | "too_complex" | "too_expensive" | "unused")[];
                    };
                    planSwitching?: {
                        /** @description The plans a customer may switch between (their subscription must be on one of them); empty: plan switching is off. */
                        planIds: string[];
                    };
                    promotionCodes?: boolean;
                    walletChanges?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingPortalConfiguration"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSubscriptionCharge: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `subch_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionCharge"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSubscriptionChargeReceipt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `subch_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The receipt as a PDF document (attachment receipt-<charge id>.pdf). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSubscriptionCharges: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`subch_...`) of its last object; the page starts below it. */
                cursor?: string;
                /** @description Identifier (prefix `sub_`). */
                subscriptionId?: string;
                /** @description Only charges on this chain (EIP-155 id): their subscription's. */
                chainId?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SubscriptionCharge"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPaymentSessions: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`ps_...`) of its last object; the page starts below it. */
                cursor?: string;
                /** @description Only sessions in this status. */
                status?: "open" | "processing" | "completed" | "expired" | "cancelled";
                /** @description Only sessions that accept this chain (EIP-155 id). */
                chainId?: number;
                /** @description Only this customer's payments (`cus_...`). */
                customerId?: string;
                /** @description Only objects whose metadata holds every given pair, exactly: `metadata[key]=value` (repeat with other keys to require several). */
                metadata?: {
                    [key: string]: string;
                };
                /** @description Only objects created at or after this time (inclusive). */
                createdFrom?: string;
                /** @description Only objects created before this time (exclusive). */
                createdTo?: string;
                /** @description Search: the session id, the payer wallet address (any letter case), the transaction hash (exact), or the start of the email of the payer's customer (case-insensitive prefix). */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PaymentSession"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPaymentSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Amount to pay, in USDC base units (6 decimals): "2500000" is 2.50 USDC. */
                    amount: string;
                    /**
                     * @default USDC
                     * @enum {string}
                     */
                    currency?: "USDC";
                    /**
                     * @description Seconds until the session expires if unpaid: 300 to 604800, default 1800 (30 minutes).
                     * @default 1800
                     */
                    expiresInSeconds?: number;
                    /**
                     * Format: uri
                     * @description Where the hosted checkout sends the customer after the payment is confirmed. `{PAYMENT_SESSION_ID}` anywhere in it is replaced by the session id, so the page can look the payment up.
                     */
                    successUrl?: string;
                    /**
                     * Format: uri
                     * @description Where the hosted checkout sends the customer who cancels.
                     */
                    cancelUrl?: string;
                    /**
                     * @description Free-form key/value pairs stored with the object: at most 20 keys of up to 40 characters, string values up to 500 characters.
                     * @default {}
                     */
                    metadata?: {
                        [key: string]: string;
                    };
                    /** @description Test mode only: the test clock (`clock_...`) whose time this object follows. Its expiry or due date is counted from the clock's time and passes when the clock is advanced past it; deleting the clock ends it. */
                    testClock?: string;
                    /** @description The chains (EIP-155 ids) the customer may pay on, in the order the hosted page offers them; each must be one of the mode's configured chains (and of the account's accepted chains when it restricts them). Default: the account's accepted chains, else every chain of the mode. The first is the session's `chainId`. */
                    acceptedChainIds?: number[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentSession"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPaymentSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `ps_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentSession"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPaymentSessionTransactions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `ps_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentSessionTransactionList"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCheckoutSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `ps_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutSession"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStorefront: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Storefront"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createStorefront: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Required when the storefront is created. The address of the public page, `/store/{slug}`: 3 to 40 lower-case letters, digits and single hyphens, unique across the service (a slug taken by any storefront, in either mode, is refused). Reserved words (`admin`, `api`, `checkout`, `store`, ...) are refused. */
                    slug?: string;
                    /** @description The shop name shown on the page. Required when the storefront is created. */
                    name?: string;
                    /** @description A short text under the name. */
                    description?: string | null;
                    /** @description An https URL of the logo shown on the page. */
                    logoUrl?: string | null;
                    /** @description The colour of buttons and highlights on the public page, `#rrggbb` (stored lower-case). Default `#2b59c3`. */
                    accentColor?: string;
                    /** @description Shown on the page as the contact for customers. */
                    supportEmail?: string | null;
                    /** @description Where the hosted checkout sends a customer after a confirmed purchase; `{PAYMENT_SESSION_ID}` in it becomes the payment session id. Default: back to the store page, `?purchased=<product id>&session=<payment session id>`. */
                    successUrl?: string | null;
                    /** @description Where the hosted checkout sends a customer who cancels. Default: the store page. */
                    cancelUrl?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Storefront"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listStorefrontProducts: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`prod_...`) of its last object; the page starts below it. */
                cursor?: string;
                /** @description `false`: only products not archived; `true`: only archived ones. Absent: all. */
                archived?: "true" | "false";
                /** @description Filter on the active flag. */
                active?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Product"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createStorefrontProduct: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    description?: string | null;
                    /** @description An https URL of the product image shown on its card. */
                    imageUrl?: string | null;
                    /** @description Price in USDC base units (6 decimals): "2500000" is 2.50 USDC. Required unless `planId` is given; with `planId` it may be left out (the plan's amount is used) and, if given, must equal the plan's amount. */
                    amount?: string;
                    /**
                     * @default USDC
                     * @enum {string}
                     */
                    currency?: "USDC";
                    /** @description A subscription plan of this merchant and mode: buying the product enrols the customer in the plan through the hosted enrolment page instead of a one-shot payment. Cannot be changed later. */
                    planId?: string;
                    /**
                     * @description Inactive products are kept but not shown on the public page and cannot be bought.
                     * @default true
                     */
                    active?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStorefrontProduct: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `prod_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateProduct: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `prod_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string | null;
                    imageUrl?: string | null;
                    /** @description New price for future purchases (sessions already created keep theirs). Refused for a plan product: the plan sets its price. */
                    amount?: string;
                    active?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    archiveProduct: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `prod_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStore: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page (text/html) or its data (application/json). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Store"];
                    "text/html": string;
                };
            };
            /** @description Not found: an HTML page, or the error envelope for JSON. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/html": string;
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    purchaseStoreProduct: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                slug: string;
                /** @description Identifier of the object (ours start with `prod_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorePurchase"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listInvoices: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`inv_...`) of its last object; the page starts below it. */
                cursor?: string;
                /** @description Only invoices in this status. */
                status?: "draft" | "sent" | "paid" | "overdue" | "void";
                /** @description Only objects whose metadata holds every given pair, exactly: `metadata[key]=value` (repeat with other keys to require several). */
                metadata?: {
                    [key: string]: string;
                };
                /** @description Only objects created at or after this time (inclusive). */
                createdFrom?: string;
                /** @description Only objects created before this time (exclusive). */
                createdTo?: string;
                /** @description Search: the invoice id, the invoice number (any letter case), the hash of the transaction that paid it (exact), the payer wallet address (any letter case), or the start of the customer's email (case-insensitive prefix). */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Invoice"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createInvoice: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    customerName?: string;
                    /** @description Required before the invoice can be sent (POST /v1/invoices/{id}/send). */
                    customerEmail?: string;
                    /** @description The merchant's customer (`cus_...`) the invoice is for: the customer portal lists it for them. Without `customerEmail`, the customer's email is used. Another merchant's or mode's customer is `invalid_request`. */
                    customerId?: string;
                    /**
                     * @default USDC
                     * @enum {string}
                     */
                    currency?: "USDC";
                    /** @description 1 to 100 line items. */
                    lineItems: components["schemas"]["InvoiceLineItemInput"][];
                    note?: string;
                    /**
                     * @description Days from creation until dueAt (0 to 365, default 30; from the test clock's time when `testClock` is given).
                     * @default 30
                     */
                    dueInDays?: number;
                    /** @description Test mode only: the test clock (`clock_...`) whose time this object follows. Its expiry or due date is counted from the clock's time and passes when the clock is advanced past it; deleting the clock ends it. */
                    testClock?: string;
                    /** @description Up to 50 keys (1 to 40 characters) of string values (up to 500 characters), kept as given. */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInvoice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `inv_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateInvoice: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `inv_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "metadata": {
                 *         "order": "1234",
                 *         "note": ""
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @description Merged into the stored metadata; a key sent as "" is removed. */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendInvoice: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `inv_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    voidInvoice: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `inv_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInvoicePdf: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `inv_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The invoice as a PDF document (attachment invoice-<number>.pdf). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRefunds: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`re_...`) of its last object; the page starts below it. */
                cursor?: string;
                /** @description Only refunds in this status. */
                status?: "requires_action" | "pending" | "processing" | "succeeded" | "failed" | "cancelled";
                /** @description Only refunds on this chain (EIP-155 id). */
                chainId?: number;
                /** @description Only objects whose metadata holds every given pair, exactly: `metadata[key]=value` (repeat with other keys to require several). */
                metadata?: {
                    [key: string]: string;
                };
                /** @description Only objects created at or after this time (inclusive). */
                createdFrom?: string;
                /** @description Only objects created before this time (exclusive). */
                createdTo?: string;
                /** @description Search: the refund id, the id of the refunded payment session, the wallet address refunded to (any letter case), or the refund transaction hash (exact). */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Refund"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createRefund: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The completed payment session to refund. */
                    paymentSessionId: string;
                    /** @description Not with paymentSessionId. */
                    invoiceId?: unknown;
                    /** @description Amount to refund in base units; defaults to all that remains refundable. Never more than was paid in total (the payment, an overpayment by transfer, late deposits) minus its pending, processing and succeeded refunds. */
                    amount?: string;
                    reason?: string;
                    /** @description Optional check: the chain the refund must go out on (EIP-155 id). A refund always goes out on the chain the money came in on (a late deposit's chain, else the chain of the payment); naming another chain is refused (invalid_request, param chainId) and creates nothing. */
                    chainId?: number;
                    /** @description Send the refund to this address instead of the payer the payment shows (recipientSource `merchant_specified`): e.g. the address the customer asked for. Not the zero address, the payout address, the session's deposit address, the token or the platform's contracts. Not with customerClaim. */
                    destination?: string;
                    /**
                     * @description Let the customer name the address on the hosted refund-claim page (`claimUrl`; emailed when the invoice has a customerEmail): the refund is `requires_action` until they do. Chosen by itself when the payer cannot be told (the payment came from several senders). Not with destination or depositId.
                     * @enum {boolean}
                     */
                    customerClaim?: true;
                    /** @description A late deposit of this session (its `sourceId` in GET /v1/payment-sessions/{id}/transactions) to return to its own sender: the amount defaults to, and is at most, what remains of that deposit. Without it a refund goes to the payer of the payment. */
                    depositId?: string;
                    /** @description Up to 50 keys (1 to 40 characters) of string values (up to 500 characters), kept as given. */
                    metadata?: {
                        [key: string]: string;
                    };
                } | {
                    /** @description A paid invoice: refunds its backing session's payment. */
                    invoiceId: string;
                    /** @description Not with invoiceId. */
                    paymentSessionId?: unknown;
                    /** @description Amount to refund in base units; defaults to all that remains refundable. Never more than was paid in total (the payment, an overpayment by transfer, late deposits) minus its pending, processing and succeeded refunds. */
                    amount?: string;
                    reason?: string;
                    /** @description Optional check: the chain the refund must go out on (EIP-155 id). A refund always goes out on the chain the money came in on (a late deposit's chain, else the chain of the payment); naming another chain is refused (invalid_request, param chainId) and creates nothing. */
                    chainId?: number;
                    /** @description Send the refund to this address instead of the payer the payment shows (recipientSource `merchant_specified`): e.g. the address the customer asked for. Not the zero address, the payout address, the session's deposit address, the token or the platform's contracts. Not with customerClaim. */
                    destination?: string;
                    /**
                     * @description Let the customer name the address on the hosted refund-claim page (`claimUrl`; emailed when the invoice has a customerEmail): the refund is `requires_action` until they do. Chosen by itself when the payer cannot be told (the payment came from several senders). Not with destination or depositId.
                     * @enum {boolean}
                     */
                    customerClaim?: true;
                    /** @description A late deposit of this session (its `sourceId` in GET /v1/payment-sessions/{id}/transactions) to return to its own sender: the amount defaults to, and is at most, what remains of that deposit. Without it a refund goes to the payer of the payment. */
                    depositId?: string;
                    /** @description Up to 50 keys (1 to 40 characters) of string values (up to 500 characters), kept as given. */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recordRefundSignature: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `re_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Hash of the mined transaction that made the refund transfer (from instructions.from to instructions.to, exactly instructions.amount of the token). */
                    transactionHash: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    authorizeRefund: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `re_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The EIP-3009 TransferWithAuthorization message the payout wallet signed (domain: the token's). */
                    authorization: {
                        /** @description The payout wallet (the refund's instructions.from). */
                        from: string;
                        /** @description The customer (the refund's instructions.to). */
                        to: string;
                        /** @description Exactly the refund's amount. */
                        value: string;
                        validAfter: string;
                        validBefore: string;
                        nonce: string;
                    };
                    signature: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelRefund: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `re_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRefundAllowance: {
        parameters: {
            query?: {
                /** @description The chain of the allowance (EIP-155 id): one of the mode's configured chains. Default: the mode's first chain. */
                chainId?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefundAllowance"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    grantRefundAllowance: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The chain whose USDC the permit is for (EIP-155 id; its domain names the chain): one of the mode's configured chains. Default: the mode's first chain. Refunds of payments on that chain are then sent from this allowance. */
                    chainId?: number;
                    /** @description The allowance to grant in base units (a cap: it replaces the current allowance). */
                    value: string;
                    /** @description The permit deadline (unix seconds), as signed. */
                    deadline: string;
                    /** @description The payout wallet's EIP-712 signature of the Permit. */
                    signature: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefundAllowance"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    previewRefundRecipient: {
        parameters: {
            query: {
                /** @description The payment session a refund would be of. */
                paymentSessionId: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefundRecipient"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRefund: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `re_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateRefund: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `re_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "metadata": {
                 *         "order": "1234",
                 *         "note": ""
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @description Merged into the stored metadata; a key sent as "" is removed. */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSecretScanningReport: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
                /** @description Identifier of the partner key that signed the body (or `Github-Public-Key-Identifier`). */
                "secret-scanning-key-identifier"?: string;
                /** @description Base64 ECDSA P-256 / SHA-256 signature (DER) of the raw body (or `Github-Public-Key-Signature`). */
                "secret-scanning-signature"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The string found in public. */
                    token: string;
                    /** @description The partner's name for the token pattern. */
                    type: string;
                    /** @description Where it was found. */
                    url: string;
                    /** @description e.g. `content`, `commit`, `npm`. */
                    source?: string;
                }[];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeakReportResult"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStatsMrr: {
        parameters: {
            query: {
                /** @description First day of the range (UTC), included. */
                from: string;
                /** @description Last day of the range (UTC), included. At most 1096 days from `from`, and at most 366 buckets. */
                to: string;
                /** @description Bucket size: UTC calendar day, ISO week (from Monday) or calendar month. First and last buckets are cut to the range. */
                interval?: "day" | "week" | "month";
                /** @description Only amounts in this currency are counted. */
                currency?: "USDC";
                /** @description Only subscriptions of this plan (payment sessions and invoices are not filtered by plan). */
                planId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MrrStats"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStatsChurn: {
        parameters: {
            query: {
                /** @description First day of the range (UTC), included. */
                from: string;
                /** @description Last day of the range (UTC), included. At most 1096 days from `from`, and at most 366 buckets. */
                to: string;
                /** @description Bucket size: UTC calendar day, ISO week (from Monday) or calendar month. First and last buckets are cut to the range. */
                interval?: "day" | "week" | "month";
                /** @description Only amounts in this currency are counted. */
                currency?: "USDC";
                /** @description Only subscriptions of this plan (payment sessions and invoices are not filtered by plan). */
                planId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChurnStats"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStatsConversion: {
        parameters: {
            query: {
                /** @description First day of the range (UTC), included. */
                from: string;
                /** @description Last day of the range (UTC), included. At most 1096 days from `from`, and at most 366 buckets. */
                to: string;
                /** @description Bucket size: UTC calendar day, ISO week (from Monday) or calendar month. First and last buckets are cut to the range. */
                interval?: "day" | "week" | "month";
                /** @description Only amounts in this currency are counted. */
                currency?: "USDC";
                /** @description Only subscriptions of this plan (payment sessions and invoices are not filtered by plan). */
                planId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversionStats"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStatsLtv: {
        parameters: {
            query: {
                /** @description First day of the range (UTC), included. */
                from: string;
                /** @description Last day of the range (UTC), included. At most 1096 days from `from`, and at most 366 buckets. */
                to: string;
                /** @description Bucket size: UTC calendar day, ISO week (from Monday) or calendar month. First and last buckets are cut to the range. */
                interval?: "day" | "week" | "month";
                /** @description Only amounts in this currency are counted. */
                currency?: "USDC";
                /** @description Only subscriptions of this plan (payment sessions and invoices are not filtered by plan). */
                planId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LtvStats"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStatsForecast: {
        parameters: {
            query: {
                /** @description First day of the range (UTC), included. */
                from: string;
                /** @description Last day of the range (UTC), included. At most 1096 days from `from`, and at most 366 buckets. */
                to: string;
                /** @description Bucket size: UTC calendar day, ISO week (from Monday) or calendar month. First and last buckets are cut to the range. */
                interval?: "day" | "week" | "month";
                /** @description Only amounts in this currency are counted. */
                currency?: "USDC";
                /** @description Only subscriptions of this plan (payment sessions and invoices are not filtered by plan). */
                planId?: string;
                /** @description How many buckets of `interval` to project after `to`, 1 to 36 (default 12). */
                horizon?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForecastStats"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPayoutBalances: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One entry per chain of the mode, in configuration order (the mode's first chain first). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["PayoutBalance"][];
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgentsConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentConfig"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateAgentsConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Only the keys sent are applied; nested objects are merged key by key. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description Capabilities the agent may act with (default none). */
                    enabledCapabilities?: ("recovery" | "cashflow" | "pricing_intelligence")[];
                    recovery?: {
                        /** @description Hours a failed charge may be recovered before the subscription lapses (0 to 8760, default 72). */
                        gracePeriodHours?: number;
                        /**
                         * @description When recovery retries a failed charge, in hours after the first refusal (grace window G): `once` (at G), `twice` (at G/2 and G, the default), `daily` (every 24 h below G, and at G). A top-up seen on-chain retries at once besides.
                         * @enum {string}
                         */
                        strategy?: "once" | "twice" | "daily";
                        /** @description Text of the customer notice (up to 2000 characters). Placeholders: `{merchantName}`, `{planName}`, `{amount}`, `{currency}`, `{subscriptionId}`, `{customerEmail}`, `{status}`, `{graceDeadline}`, `{topUpUrl}`; the top-up link is appended when `{topUpUrl}` is absent. */
                        notificationTemplate?: string;
                    };
                    cashflow?: {
                        /** @description Whether the cashflow digest runs (default false). */
                        digestEnabled?: boolean;
                        /**
                         * @description `low`, `medium` (default) or `high`: how small a deviation counts as an anomaly.
                         * @enum {string}
                         */
                        anomalySensitivity?: "low" | "medium" | "high";
                        /** @description Whether idle balance above the reserve moves to the yield vault (default false). */
                        autoConvertToYield?: boolean;
                        /** @description USD cents always kept liquid (non-negative integer, default 0). */
                        minimumLiquidReserveCents?: number;
                    };
                    commerce?: {
                        /** @description A job whose amount, in USD cents, is at or above this needs human approval (default 10000 = $100). USDC: 1 cent = 10,000 base units. */
                        requireHumanApprovalAboveUsdCents?: number;
                        /** @description Vendors a job may be auto-approved for (default empty: every job needs approval). */
                        approvedVendors?: string[];
                        /** @description Auto-approval never takes the calendar month (UTC) of approved jobs above this many USD cents (default 100000 = $1,000); a job past it is proposed for a human. */
                        monthlySpendCapUsdCents?: number;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentConfig"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAgentsActivity: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`aga_...`) of its last object; the page starts below it. */
                cursor?: string;
                capability?: "recovery" | "cashflow" | "pricing_intelligence" | "commerce" | "configuration";
                actionType?: "config_updated" | "job_created" | "job_proposed" | "job_approved" | "job_funded" | "job_submitted" | "job_completed" | "job_rejected" | "job_disputed" | "job_expired" | "job_refunded" | "job_failed" | "recovery_started" | "customer_notified" | "charge_retried" | "subscription_recovered" | "subscription_lapsed" | "digest_sent" | "revenue_anomaly" | "yield_deposited" | "yield_withdrawn" | "price_suggestion";
                outcome?: "succeeded" | "failed" | "pending_approval" | "suggested";
                /** @description Identifier (prefix `sub_`). */
                subscriptionId?: string;
                transactionId?: string;
                /** @description Identifier (prefix `job_`). */
                jobId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AgentActivity"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAgentsJobs: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`job_...`) of its last object; the page starts below it. */
                cursor?: string;
                /** @description Only jobs in this status. */
                status?: "proposed" | "approved" | "funded" | "submitted" | "completed" | "rejected" | "disputed" | "expired" | "failed";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AgentJob"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createAgentsJob: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The provider (ERC-8183) who does the work and is paid on completion. */
                    vendorAddress: string;
                    description: string;
                    /** @description Budget in the token base units (USDC: 6 decimals, so 1 cent = 10,000 units). */
                    amount: string;
                    /**
                     * @description `USDC`, the escrow contract's payment token.
                     * @enum {string}
                     */
                    currency: "USDC";
                    /** @description Who accepts or rejects the submitted work on-chain (ERC-8183 evaluator). Default: the agent wallet itself. */
                    evaluatorAddress?: string;
                    /**
                     * @description Escrow lifetime counted from approval (default 604800 = 7 days); after it the escrow is refunded to the agent wallet.
                     * @default 604800
                     */
                    expiresInSeconds?: number;
                    /** @description The chain (EIP-155 id) the escrow runs on: one of the mode's configured chains, where the agent wallet must hold the USDC (and gas). Default: the mode's first chain. */
                    chainId?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentJob"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgentsJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `job_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentJob"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    approveAgentsJob: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `job_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentJob"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    completeAgentsJob: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `job_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Why (optional, up to 200 characters). On-chain the escrow records its keccak256 as the bytes32 `reason`; zero without one. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentJob"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rejectAgentsJob: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `job_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Why (optional, up to 200 characters). On-chain the escrow records its keccak256 as the bytes32 `reason`; zero without one. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentJob"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTestClocks: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The `nextCursor` of the previous page: the id (`clock_...`) of its last object; the page starts below it. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TestClock"][];
                        /** @description Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false. */
                        nextCursor: string;
                        /** @description True when another page follows; `nextCursor` is then non-empty. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createTestClock: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /**
                     * Format: date-time
                     * @description The clock's starting time; not before the test chain's current block time (chain time only moves forward), at most 400 days after now (as one advance).
                     */
                    frozenTime: string;
                    /**
                     * @description Payer wallets whose subscriptions, payment sessions and invoices with this merchant follow the clock (at most 10 per clock).
                     * @default []
                     */
                    wallets?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClock"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTestClock: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `clock_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClock"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteTestClock: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the object (ours start with `clock_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClock"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    walletsTestClock: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `clock_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Payer wallets whose subscriptions, payment sessions and invoices with this merchant follow the clock (at most 10 per clock). */
                    wallets: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClock"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    advanceTestClock: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `clock_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description The time to move to: after the clock's time, at most 400 days later.
                     */
                    frozenTime: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClock"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteTestClockByAction: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried POST safe: the first response is replayed for 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of the object (ours start with `clock_`); opaque, an unknown one is not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClock"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
