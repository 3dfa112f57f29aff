// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {BitMaps} from "@openzeppelin/contracts/utils/structs/BitMaps.sol";

/// @title SubscriptionManagerV2
/// @notice Pull-payment subscriptions: a subscriber enrols into a merchant's terms and grants this
///         contract an ERC-20 allowance; the merchant's operator then pulls at most `amount` once per
///         period, never early, never after cancellation, never past the authorised number of periods,
///         and only inside the period's charge window: from its start until `chargeWindow` seconds
///         later, a length the subscriber signs in the terms. A period missed for longer is gone for
///         good, so unpaid periods never pile up as arrears one charge could pull at once.
///         The contract, not the operator's good behaviour, is the subscriber's guarantee.
/// @dev v2 of contracts/SubscriptionManager.sol (v1 stays deployed for the subscriptions enrolled on it).
///      What changed (docs/decisions.md "Subscription charge window"): `Terms.chargeWindow` (signed in the
///      Enrolment typed data, stored with the route, refused when zero), `ChargeWindowClosed`, and in
///      `chargeMany` a gas cap per token call (`TOKEN_CALL_GAS`) with at most one word of return data
///      copied, so a hostile token burns its own item's cap, never the batch's gas. The charge, cancel,
///      view and event signatures are v1's, so the off-chain charge path calls either version alike.
/// @dev Failure policy: every refused or failed charge REVERTS with a named custom error (including
///      insufficient balance/allowance, which are pre-checked so the reason is ours, not the token's).
///      Nothing is recorded for a failed charge, so the same period can be retried later (dunning /
///      recovery on top-up), and an off-chain scheduler learns the reason by simulating the call first.
///      Charging period N twice is impossible, which makes an at-least-once scheduler safe.
///
///      `chargeMany` is the batched form for an operator with many periods due at once: each item is
///      checked exactly as `charge` checks it, but a refused item does not revert the batch; it is
///      skipped and reported by a `SubscriptionChargeFailed` event carrying the selector of the error
///      `charge` would have reverted with. The once-per-period guard is the same flags.
///
///      The allowance is per (subscriber, token) and therefore shared by all of a subscriber's
///      subscriptions paying in that token; the per-subscription caps here are what bound each merchant.
///
///      Storage (gas, docs/benchmarks.md "Gas per charge"): a subscription is two slots. The (token,
///      merchant, operator) triple it pays through is stored once per distinct triple as a "payee
///      route" and referenced by a 32-bit id, so `chargeMany` reads a route once for a run of items
///      sharing it instead of three cold slots per item. Periods 0..55 are marked charged in bits of
///      the subscription's second slot (a warm nonzero-to-nonzero store, not a fresh bitmap word);
///      later periods use the `_chargedPeriods` bitmap. The agreed amount is stored as uint96
///      (enrolment refuses more, `AmountTooLarge`).
contract SubscriptionManagerV2 is EIP712, ReentrancyGuard {
    using SafeERC20 for IERC20;
    using BitMaps for BitMaps.BitMap;

    /// @notice What a subscriber agrees to.
    /// @param token ERC-20 paid in.
    /// @param merchant Payee of every charge.
    /// @param operator Only address allowed to charge (the merchant's relayer/scheduler).
    /// @param amount Maximum per period (a charge may be lower, e.g. metered billing).
    /// @param period Period length in seconds.
    /// @param periods Number of chargeable periods; 0 means open-ended.
    /// @param trialEnd Period 0 starts at max(enrolment time, trialEnd).
    /// @param chargeWindow Seconds after a period's start during which it may be charged (> 0).
    struct Terms {
        address token;
        address merchant;
        address operator;
        uint256 amount;
        uint64 period;
        uint32 periods;
        uint64 trialEnd;
        uint64 chargeWindow;
    }

    /// @notice An EIP-2612 permit granting this contract `value` of the subscriber's token.
    struct PermitSignature {
        uint256 value;
        uint256 deadline;
        uint8 v;
        bytes32 r;
        bytes32 s;
    }

    /// @notice The subscriber's EIP-712 consent to `Terms`, so a relayer can submit but not invent terms.
    /// @param nonce Unique random value chosen by the subscriber (unordered, like EIP-3009 nonces).
    struct EnrolmentAuthorization {
        bytes32 nonce;
        uint256 deadline;
        bytes signature;
    }

    /// @notice A subscription as `getSubscription` returns it (the stored form is `StoredSubscription`).
    struct Subscription {
        address subscriber;
        uint64 period;
        uint32 periods;
        address merchant;
        uint64 firstPeriodStart;
        bool cancelled;
        address operator;
        address token;
        uint256 amount;
    }

    /// @dev Two slots. `chargedLow` bit i is set once period i (< INLINE_PERIODS) is charged.
    struct StoredSubscription {
        // slot 0
        address subscriber;
        uint64 period;
        uint32 periods;
        // slot 1
        uint96 amount;
        uint64 firstPeriodStart;
        uint32 route;
        bool cancelled;
        uint56 chargedLow;
    }

    /// @dev What a subscription pays through, and how long each period stays chargeable; one entry per
    ///      distinct (token, merchant, operator, chargeWindow), three slots (the window packs beside the token).
    struct Route {
        address token;
        uint64 chargeWindow;
        address merchant;
        address operator;
    }

    /// @dev Periods whose charged flag lives in `StoredSubscription.chargedLow`.
    uint32 private constant INLINE_PERIODS = 56;

    /// @notice Gas `chargeMany` gives each token call (transferFrom, and the allowance and balance reads
    ///         naming a failure). Circle's USDC transferFrom behind its proxy costs about 40-65k; a token
    ///         needing more fails its item with `ChargeTransferFailed` (`charge` forwards all gas).
    uint256 public constant TOKEN_CALL_GAS = 150_000;
    /// @dev Gas an item needs beyond its token call (checks, flags, event): a batch refuses to start an
    ///      item with less than `TOKEN_CALL_GAS + ITEM_OVERHEAD_GAS` left, so an item is never failed for
    ///      the operator's low gas limit.
    uint256 private constant ITEM_OVERHEAD_GAS = 60_000;

    bytes32 public constant ENROLMENT_TYPEHASH = keccak256(
        "Enrolment(address subscriber,address token,address merchant,address operator,uint256 amount,uint64 period,uint32 periods,uint64 trialEnd,uint64 chargeWindow,bytes32 nonce,uint256 deadline)"
    );
    bytes32 public constant CANCELLATION_TYPEHASH =
        keccak256("Cancellation(uint256 subscriptionId,uint256 deadline)");

    /// @notice Number of subscriptions created; ids are 1..subscriptionCount.
    uint256 public subscriptionCount;

    mapping(uint256 id => StoredSubscription) private _subscriptions;
    /// @dev Charged flags of periods >= INLINE_PERIODS.
    mapping(uint256 id => BitMaps.BitMap) private _chargedPeriods;
    /// @dev Routes 1..routeCount; 0 is never used, so a zero route means "no subscription".
    mapping(uint32 route => Route) private _routes;
    mapping(bytes32 key => uint32 route) private _routeIds;
    uint32 private _routeCount;
    mapping(address subscriber => mapping(bytes32 nonce => bool)) private _enrolmentNonces;

    event SubscriptionCreated(
        uint256 indexed id,
        address indexed subscriber,
        address indexed merchant,
        address token,
        uint256 amount,
        uint64 period,
        uint32 periods,
        uint64 firstPeriodStart,
        address operator
    );
    event SubscriptionCharged(uint256 indexed id, uint32 indexed periodIndex, uint256 amount);
    /// @notice A `chargeMany` item that was not charged; `reason` is the selector of the custom error
    ///         `charge` reverts with for the same state (e.g. `InsufficientBalance.selector`), or
    ///         `ChargeTransferFailed.selector` when the token refused the transfer itself.
    event SubscriptionChargeFailed(uint256 indexed id, uint32 indexed periodIndex, bytes4 reason);
    event SubscriptionCancelled(uint256 indexed id, address indexed by);
    event EnrolmentNonceCancelled(address indexed subscriber, bytes32 indexed nonce);

    error ZeroAddress();
    error ZeroAmount();
    /// @notice The agreed amount does not fit the stored uint96.
    error AmountTooLarge(uint256 amount);
    error ZeroPeriod();
    error SubscriptionNotFound(uint256 id);
    error NotOperator(uint256 id, address caller);
    error NotAuthorisedToCancel(uint256 id, address caller);
    error SubscriptionIsCancelled(uint256 id);
    error PeriodBeyondTerm(uint256 id, uint32 periodIndex, uint32 periods);
    error PeriodNotStarted(uint256 id, uint32 periodIndex, uint256 startsAt);
    /// @notice The period's charge window closed at `closedAt`: it can never be charged.
    error ChargeWindowClosed(uint256 id, uint32 periodIndex, uint256 closedAt);
    error ZeroChargeWindow();
    /// @notice `chargeMany` only: too little gas left to give item `index` its token call's cap.
    error BatchGasTooLow(uint256 index);
    error PeriodAlreadyCharged(uint256 id, uint32 periodIndex);
    error AmountExceedsTerms(uint256 id, uint256 amount, uint256 maxAmount);
    error InsufficientAllowance(uint256 id, uint256 allowance, uint256 amount);
    error InsufficientBalance(uint256 id, uint256 balance, uint256 amount);
    /// @notice The permit call failed and the allowance it was meant to grant is not in place.
    error PermitFailed(address token, address owner, uint256 allowance, uint256 value);
    /// @notice `chargeMany` only: the token call failed although allowance and balance sufficed.
    error ChargeTransferFailed(uint256 id);
    /// @notice `chargeMany` only: the three arrays differ in length.
    error BatchLengthMismatch();
    error EnrolmentExpired(uint256 deadline);
    error EnrolmentNonceUsed(address subscriber, bytes32 nonce);
    error InvalidEnrolmentSignature();
    error CancellationExpired(uint256 deadline);
    error InvalidCancellationSignature();

    constructor() EIP712("SubscriptionManager", "2") {}

    // ------------------------------------------------------------------ enrolment

    /// @notice Enrol the caller; the allowance must already be in place (or be granted before charging).
    function subscribe(Terms calldata terms) external nonReentrant returns (uint256 id) {
        return _create(msg.sender, terms);
    }

    /// @notice Enrol the caller and grant the allowance with an EIP-2612 permit in one transaction.
    function subscribeWithPermit(Terms calldata terms, PermitSignature calldata permitSig)
        external
        nonReentrant
        returns (uint256 id)
    {
        _applyPermit(msg.sender, terms.token, permitSig);
        return _create(msg.sender, terms);
    }

    /// @notice Relayed enrolment with a prior approval: `subscriber` signed the exact terms.
    function subscribeFor(address subscriber, Terms calldata terms, EnrolmentAuthorization calldata auth)
        external
        nonReentrant
        returns (uint256 id)
    {
        _consumeEnrolment(subscriber, terms, auth);
        return _create(subscriber, terms);
    }

    /// @notice Relayed enrolment with a permit: the relayer pays gas, the subscriber only signs twice.
    function subscribeWithPermitFor(
        address subscriber,
        Terms calldata terms,
        PermitSignature calldata permitSig,
        EnrolmentAuthorization calldata auth
    ) external nonReentrant returns (uint256 id) {
        _consumeEnrolment(subscriber, terms, auth);
        _applyPermit(subscriber, terms.token, permitSig);
        return _create(subscriber, terms);
    }

    /// @notice Let a subscriber void an enrolment signature that has not been submitted yet.
    function cancelEnrolmentNonce(bytes32 nonce) external {
        if (_enrolmentNonces[msg.sender][nonce]) revert EnrolmentNonceUsed(msg.sender, nonce);
        _enrolmentNonces[msg.sender][nonce] = true;
        emit EnrolmentNonceCancelled(msg.sender, nonce);
    }

    // ------------------------------------------------------------------ charging

    /// @notice Pull `amount` (<= the agreed amount) for period `periodIndex`. Only the operator; at most
    ///         once per period; not before the period starts; never after cancel or past the term.
    /// @dev The explicit period index makes an off-chain scheduler's retry for period N idempotent.
    function charge(uint256 id, uint32 periodIndex, uint256 amount) external nonReentrant {
        StoredSubscription storage sub = _existing(id);
        Route storage route = _routes[sub.route];
        if (msg.sender != route.operator) revert NotOperator(id, msg.sender);
        // Checked on-chain (not just via allowance) so a cancel in the same block already wins.
        if (sub.cancelled) revert SubscriptionIsCancelled(id);
        if (sub.periods != 0 && periodIndex >= sub.periods) revert PeriodBeyondTerm(id, periodIndex, sub.periods);
        uint256 startsAt = _periodStart(sub, periodIndex);
        if (block.timestamp < startsAt) revert PeriodNotStarted(id, periodIndex, startsAt);
        uint256 closesAt = startsAt + route.chargeWindow;
        if (block.timestamp >= closesAt) revert ChargeWindowClosed(id, periodIndex, closesAt);
        if (_isCharged(id, sub, periodIndex)) revert PeriodAlreadyCharged(id, periodIndex);
        if (amount == 0) revert ZeroAmount();
        if (amount > sub.amount) revert AmountExceedsTerms(id, amount, sub.amount);

        address subscriber = sub.subscriber;
        address token = route.token;
        // Effects before the interaction (CEI); nonReentrant covers hostile tokens as well.
        _setCharged(id, sub, periodIndex);
        emit SubscriptionCharged(id, periodIndex, amount);
        // The transfer is tried first and allowance and balance read only when it fails, for the same
        // named error (and arguments) as checking them first; a revert undoes the mark and the event.
        if (!IERC20(token).trySafeTransferFrom(subscriber, route.merchant, amount)) {
            uint256 allowance = IERC20(token).allowance(subscriber, address(this));
            if (allowance < amount) revert InsufficientAllowance(id, allowance, amount);
            uint256 balance = IERC20(token).balanceOf(subscriber);
            if (balance < amount) revert InsufficientBalance(id, balance, amount);
            // Allowance and balance sufficed: the token refused for a reason of its own; surface it.
            IERC20(token).safeTransferFrom(subscriber, route.merchant, amount);
        }
    }

    /// @notice Charges several periods in one transaction. Item `i` charges `amounts[i]` for period
    ///         `periodIndexes[i]` of subscription `ids[i]` under exactly the rules of `charge`; an item
    ///         `charge` would refuse is skipped with a `SubscriptionChargeFailed` event and never
    ///         reverts the batch. Each charged item emits `SubscriptionCharged`, as `charge` does.
    ///         Each token call gets at most `TOKEN_CALL_GAS` and one word of its return data is read:
    ///         a token that burns gas or returns megabytes fails its own item only. The batch reverts
    ///         (`BatchGasTooLow`) rather than start an item it cannot give that cap.
    /// @return reasons Per item: zero when charged, else the failure's error selector.
    function chargeMany(uint256[] calldata ids, uint32[] calldata periodIndexes, uint256[] calldata amounts)
        external
        nonReentrant
        returns (bytes4[] memory reasons)
    {
        uint256 n = ids.length;
        if (periodIndexes.length != n || amounts.length != n) revert BatchLengthMismatch();
        reasons = new bytes4[](n);
        // The route of the previous item, kept in memory: a run of items paying through the same
        // (token, merchant, operator) reads it from storage once.
        Route memory route;
        uint32 routeId;
        for (uint256 i; i < n; ++i) {
            if (gasleft() < TOKEN_CALL_GAS + ITEM_OVERHEAD_GAS) revert BatchGasTooLow(i);
            StoredSubscription storage sub = _subscriptions[ids[i]];
            uint32 subRoute = sub.route;
            if (subRoute != routeId && subRoute != 0) {
                route = _routes[subRoute];
                routeId = subRoute;
            }
            bytes4 reason = _chargeItem(ids[i], sub, route, periodIndexes[i], amounts[i]);
            if (reason != bytes4(0)) {
                reasons[i] = reason;
                emit SubscriptionChargeFailed(ids[i], periodIndexes[i], reason);
            }
        }
    }

    // ------------------------------------------------------------------ cancellation

    /// @notice Cancel for good. Subscriber, operator or merchant. Leaves the ERC-20 allowance alone
    ///         (it may serve other subscriptions) but no charge of this id can ever succeed again.
    function cancel(uint256 id) external {
        StoredSubscription storage sub = _existing(id);
        Route storage route = _routes[sub.route];
        if (msg.sender != sub.subscriber && msg.sender != route.operator && msg.sender != route.merchant) {
            revert NotAuthorisedToCancel(id, msg.sender);
        }
        _cancel(id, sub, msg.sender);
    }

    /// @notice Gasless cancel: anyone submits the subscriber's signed EIP-712 Cancellation.
    /// @dev No nonce needed: a subscription can be cancelled only once, so a replay just reverts.
    function cancelFor(uint256 id, uint256 deadline, bytes calldata signature) external {
        StoredSubscription storage sub = _existing(id);
        if (block.timestamp > deadline) revert CancellationExpired(deadline);
        bytes32 digest = _hashTypedDataV4(keccak256(abi.encode(CANCELLATION_TYPEHASH, id, deadline)));
        if (!SignatureChecker.isValidSignatureNow(sub.subscriber, digest, signature)) {
            revert InvalidCancellationSignature();
        }
        _cancel(id, sub, sub.subscriber);
    }

    // ------------------------------------------------------------------ views

    /// @notice Seconds after each period's start during which it may be charged, as the subscriber signed.
    function chargeWindow(uint256 id) external view returns (uint64) {
        return _routes[_existing(id).route].chargeWindow;
    }

    function getSubscription(uint256 id) external view returns (Subscription memory) {
        StoredSubscription storage sub = _existing(id);
        Route storage route = _routes[sub.route];
        return Subscription({
            subscriber: sub.subscriber,
            period: sub.period,
            periods: sub.periods,
            merchant: route.merchant,
            firstPeriodStart: sub.firstPeriodStart,
            cancelled: sub.cancelled,
            operator: route.operator,
            token: route.token,
            amount: sub.amount
        });
    }

    function isCharged(uint256 id, uint32 periodIndex) external view returns (bool) {
        return _isCharged(id, _subscriptions[id], periodIndex);
    }

    /// @notice Start timestamp of a period (reverts for an unknown id; not bounded by `periods`).
    function periodStart(uint256 id, uint32 periodIndex) external view returns (uint256) {
        return _periodStart(_existing(id), periodIndex);
    }

    function enrolmentNonceUsed(address subscriber, bytes32 nonce) external view returns (bool) {
        return _enrolmentNonces[subscriber][nonce];
    }

    function DOMAIN_SEPARATOR() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    // ------------------------------------------------------------------ internals

    function _create(address subscriber, Terms calldata terms) private returns (uint256 id) {
        if (subscriber == address(0) || terms.token == address(0) || terms.merchant == address(0)) {
            revert ZeroAddress();
        }
        if (terms.operator == address(0)) revert ZeroAddress();
        if (terms.amount == 0) revert ZeroAmount();
        if (terms.amount > type(uint96).max) revert AmountTooLarge(terms.amount);
        if (terms.period == 0) revert ZeroPeriod();
        if (terms.chargeWindow == 0) revert ZeroChargeWindow();

        uint64 firstStart = terms.trialEnd > block.timestamp ? terms.trialEnd : uint64(block.timestamp);
        id = ++subscriptionCount;
        _subscriptions[id] = StoredSubscription({
            subscriber: subscriber,
            period: terms.period,
            periods: terms.periods,
            amount: uint96(terms.amount),
            firstPeriodStart: firstStart,
            route: _routeFor(terms.token, terms.merchant, terms.operator, terms.chargeWindow),
            cancelled: false,
            chargedLow: 0
        });
        emit SubscriptionCreated(
            id,
            subscriber,
            terms.merchant,
            terms.token,
            terms.amount,
            terms.period,
            terms.periods,
            firstStart,
            terms.operator
        );
    }

    /// @dev Tolerates a front-run permit (someone submitted the same signature first): what matters is
    ///      that the allowance it grants is in place.
    function _applyPermit(address owner, address token, PermitSignature calldata p) private {
        try IERC20Permit(token).permit(owner, address(this), p.value, p.deadline, p.v, p.r, p.s) {}
        catch {
            uint256 allowance = IERC20(token).allowance(owner, address(this));
            if (allowance < p.value) revert PermitFailed(token, owner, allowance, p.value);
        }
    }

    function _consumeEnrolment(address subscriber, Terms calldata t, EnrolmentAuthorization calldata auth) private {
        if (block.timestamp > auth.deadline) revert EnrolmentExpired(auth.deadline);
        if (_enrolmentNonces[subscriber][auth.nonce]) revert EnrolmentNonceUsed(subscriber, auth.nonce);
        bytes32 structHash = keccak256(
            bytes.concat(
                abi.encode(ENROLMENT_TYPEHASH, subscriber, t.token, t.merchant, t.operator, t.amount),
                abi.encode(t.period, t.periods, t.trialEnd, t.chargeWindow, auth.nonce, auth.deadline)
            )
        );
        if (!SignatureChecker.isValidSignatureNow(subscriber, _hashTypedDataV4(structHash), auth.signature)) {
            revert InvalidEnrolmentSignature();
        }
        _enrolmentNonces[subscriber][auth.nonce] = true;
    }

    /// @dev The id of the (token, merchant, operator, chargeWindow) route, registered on first use.
    function _routeFor(address token, address merchant, address operator, uint64 window) private returns (uint32 route) {
        bytes32 key = keccak256(abi.encode(token, merchant, operator, window));
        route = _routeIds[key];
        if (route == 0) {
            route = ++_routeCount;
            _routeIds[key] = route;
            _routes[route] = Route({token: token, chargeWindow: window, merchant: merchant, operator: operator});
        }
    }

    function _isCharged(uint256 id, StoredSubscription storage sub, uint32 periodIndex) private view returns (bool) {
        if (periodIndex < INLINE_PERIODS) return (sub.chargedLow >> periodIndex) & 1 == 1;
        return _chargedPeriods[id].get(periodIndex);
    }

    function _setCharged(uint256 id, StoredSubscription storage sub, uint32 periodIndex) private {
        if (periodIndex < INLINE_PERIODS) sub.chargedLow |= uint56(1) << periodIndex;
        else _chargedPeriods[id].set(periodIndex);
    }

    function _unsetCharged(uint256 id, StoredSubscription storage sub, uint32 periodIndex) private {
        if (periodIndex < INLINE_PERIODS) sub.chargedLow &= ~(uint56(1) << periodIndex);
        else _chargedPeriods[id].unset(periodIndex);
    }

    function _cancel(uint256 id, StoredSubscription storage sub, address by) private {
        if (sub.cancelled) revert SubscriptionIsCancelled(id);
        sub.cancelled = true;
        emit SubscriptionCancelled(id, by);
    }

    function _existing(uint256 id) private view returns (StoredSubscription storage sub) {
        sub = _subscriptions[id];
        if (sub.subscriber == address(0)) revert SubscriptionNotFound(id);
    }

    /// @dev `charge` without reverting: the same checks in the same order, returning the selector of
    ///      the error `charge` would raise (zero on success). `route` is the item's route, already
    ///      read (stale when the subscription does not exist, which is refused first). The period is
    ///      marked before the transfer (nonReentrant on the caller covers hostile tokens) and unmarked
    ///      if it fails. The transfer is a low-level call with a gas cap, tried first: allowance and
    ///      balance are read (capped as well) only when it fails, to name the reason as `charge` does,
    ///      so a failing, gas-burning or code-less token fails its item only.
    function _chargeItem(
        uint256 id,
        StoredSubscription storage sub,
        Route memory route,
        uint32 periodIndex,
        uint256 amount
    ) private returns (bytes4) {
        address subscriber = sub.subscriber;
        if (subscriber == address(0)) return SubscriptionNotFound.selector;
        if (msg.sender != route.operator) return NotOperator.selector;
        if (sub.cancelled) return SubscriptionIsCancelled.selector;
        uint32 periods = sub.periods;
        if (periods != 0 && periodIndex >= periods) return PeriodBeyondTerm.selector;
        uint256 startsAt = _periodStart(sub, periodIndex);
        if (block.timestamp < startsAt) return PeriodNotStarted.selector;
        if (block.timestamp >= startsAt + route.chargeWindow) return ChargeWindowClosed.selector;
        if (_isCharged(id, sub, periodIndex)) return PeriodAlreadyCharged.selector;
        if (amount == 0) return ZeroAmount.selector;
        if (amount > sub.amount) return AmountExceedsTerms.selector;

        _setCharged(id, sub, periodIndex);
        if (_tryTransferFrom(route.token, subscriber, route.merchant, amount)) {
            emit SubscriptionCharged(id, periodIndex, amount);
            return bytes4(0);
        }
        _unsetCharged(id, sub, periodIndex);
        (bool allowanceOk, uint256 allowance) = _readUint(route.token, abi.encodeCall(IERC20.allowance, (subscriber, address(this))));
        if (!allowanceOk) return ChargeTransferFailed.selector;
        if (allowance < amount) return InsufficientAllowance.selector;
        (bool balanceOk, uint256 balance) = _readUint(route.token, abi.encodeCall(IERC20.balanceOf, (subscriber)));
        if (!balanceOk) return ChargeTransferFailed.selector;
        if (balance < amount) return InsufficientBalance.selector;
        return ChargeTransferFailed.selector;
    }

    /// @dev SafeERC20's rule (no return data from a contract, or a word equal to 1, is success) with the
    ///      call capped at TOKEN_CALL_GAS and only the first word of return data copied.
    function _tryTransferFrom(address token, address from, address to, uint256 amount) private returns (bool ok) {
        bytes memory data = abi.encodeCall(IERC20.transferFrom, (from, to, amount));
        uint256 gasCap = TOKEN_CALL_GAS;
        uint256 returnSize;
        uint256 returnWord;
        assembly ("memory-safe") {
            mstore(0, 0)
            ok := call(gasCap, token, 0, add(data, 0x20), mload(data), 0, 0x20)
            returnSize := returndatasize()
            returnWord := mload(0)
        }
        if (!ok) return false;
        return returnSize == 0 ? token.code.length > 0 : returnWord == 1;
    }

    /// @dev A view call returning one word, capped at TOKEN_CALL_GAS with one word of return data copied;
    ///      false when it reverts, returns short data or hits no code.
    function _readUint(address target, bytes memory data) private view returns (bool ok, uint256 value) {
        uint256 gasCap = TOKEN_CALL_GAS;
        uint256 returnSize;
        assembly ("memory-safe") {
            mstore(0, 0)
            ok := staticcall(gasCap, target, add(data, 0x20), mload(data), 0, 0x20)
            returnSize := returndatasize()
            value := mload(0)
        }
        if (!ok || returnSize < 32) return (false, 0);
    }

    function _periodStart(StoredSubscription storage sub, uint32 periodIndex) private view returns (uint256) {
        // uint64 + uint32 * uint64 cannot overflow uint256.
        return uint256(sub.firstPeriodStart) + uint256(periodIndex) * uint256(sub.period);
    }
}
