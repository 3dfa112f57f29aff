// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// @title AgenticCommerceEscrow
/// @notice ERC-8183 (Agentic Commerce) job escrow, non-hooked kernel, one payment token per contract,
///         no platform fee. Open -> Funded -> Submitted -> Completed | Rejected | Expired.
/// @dev Deliberate choices where the draft leaves room:
///      - `expiredAt` is the deadline for the whole job: once reached, `fund`, `submit`, `complete` and
///        the evaluator's `reject` revert, and the only way out of Funded/Submitted is `claimRefund`
///        (permissionless, never blocked). This avoids a race between a late `complete` and a refund.
///      - ERC-8183's optional hooks and `optParams` are not implemented (a non-hooked kernel is compliant);
///        `createJob` therefore takes no `hook` argument.
///      - The client may still `reject` an Open (unfunded) job after expiry to close it.
///      - Fee-on-transfer tokens are not supported (the configured token is USDC-like).
contract AgenticCommerceEscrow is ReentrancyGuard {
    using SafeERC20 for IERC20;

    enum JobStatus {
        Open,
        Funded,
        Submitted,
        Completed,
        Rejected,
        Expired
    }

    struct Job {
        address client;
        address provider;
        address evaluator;
        uint256 budget;
        uint256 expiredAt;
        JobStatus status;
        string description;
    }

    /// @notice The single ERC-20 every job is paid in.
    IERC20 public immutable paymentToken;

    /// @notice Number of jobs created; ids are 1..jobCount.
    uint256 public jobCount;

    mapping(uint256 jobId => Job) private _jobs;

    event JobCreated(
        uint256 indexed jobId, address indexed client, address indexed provider, address evaluator, uint256 expiredAt
    );
    event ProviderSet(uint256 indexed jobId, address indexed provider);
    event BudgetSet(uint256 indexed jobId, uint256 amount);
    event JobFunded(uint256 indexed jobId, address indexed client, uint256 amount);
    event JobSubmitted(uint256 indexed jobId, address indexed provider, bytes32 deliverable);
    event JobCompleted(uint256 indexed jobId, address indexed evaluator, bytes32 reason);
    event JobRejected(uint256 indexed jobId, address indexed rejector, bytes32 reason);
    event JobExpired(uint256 indexed jobId);
    event PaymentReleased(uint256 indexed jobId, address indexed provider, uint256 amount);
    event Refunded(uint256 indexed jobId, address indexed client, uint256 amount);

    error ZeroAddress();
    error ExpiryNotInFuture(uint256 expiredAt);
    error JobNotFound(uint256 jobId);
    /// @notice The move is not allowed from the job's current status (out-of-order call).
    error InvalidStatus(uint256 jobId, JobStatus status);
    error Unauthorized(uint256 jobId, address caller);
    error ProviderAlreadySet(uint256 jobId);
    error ProviderNotSet(uint256 jobId);
    error ZeroBudget(uint256 jobId);
    /// @notice `fund` front-running protection: the budget changed since the client looked.
    error BudgetMismatch(uint256 jobId, uint256 expected, uint256 actual);
    error JobHasExpired(uint256 jobId, uint256 expiredAt);
    error JobNotExpired(uint256 jobId, uint256 expiredAt);

    constructor(IERC20 token) {
        if (address(token) == address(0)) revert ZeroAddress();
        paymentToken = token;
    }

    // ------------------------------------------------------------------ lifecycle

    /// @notice Create an Open job with the caller as client. `provider` may be zero and set later.
    function createJob(address provider, address evaluator, uint256 expiredAt, string calldata description)
        external
        returns (uint256 jobId)
    {
        if (evaluator == address(0)) revert ZeroAddress();
        if (expiredAt <= block.timestamp) revert ExpiryNotInFuture(expiredAt);
        jobId = ++jobCount;
        Job storage job = _jobs[jobId];
        job.client = msg.sender;
        job.provider = provider;
        job.evaluator = evaluator;
        job.expiredAt = expiredAt;
        job.description = description;
        // status defaults to Open
        emit JobCreated(jobId, msg.sender, provider, evaluator, expiredAt);
    }

    /// @notice Client assigns the provider of a job created without one.
    function setProvider(uint256 jobId, address provider) external {
        Job storage job = _job(jobId);
        _requireStatus(jobId, job, JobStatus.Open);
        if (msg.sender != job.client) revert Unauthorized(jobId, msg.sender);
        if (job.provider != address(0)) revert ProviderAlreadySet(jobId);
        if (provider == address(0)) revert ZeroAddress();
        job.provider = provider;
        emit ProviderSet(jobId, provider);
    }

    /// @notice Client or provider proposes the price while the job is Open.
    function setBudget(uint256 jobId, uint256 amount) external {
        Job storage job = _job(jobId);
        _requireStatus(jobId, job, JobStatus.Open);
        if (msg.sender != job.client && (msg.sender != job.provider || job.provider == address(0))) {
            revert Unauthorized(jobId, msg.sender);
        }
        job.budget = amount;
        emit BudgetSet(jobId, amount);
    }

    /// @notice Client escrows the budget. `expectedBudget` must equal the current budget so a
    ///         provider cannot raise the price between the client's read and this transaction.
    function fund(uint256 jobId, uint256 expectedBudget) external nonReentrant {
        Job storage job = _job(jobId);
        _requireStatus(jobId, job, JobStatus.Open);
        if (msg.sender != job.client) revert Unauthorized(jobId, msg.sender);
        if (job.provider == address(0)) revert ProviderNotSet(jobId);
        uint256 budget = job.budget;
        if (budget == 0) revert ZeroBudget(jobId);
        if (budget != expectedBudget) revert BudgetMismatch(jobId, expectedBudget, budget);
        _requireNotExpired(jobId, job);

        job.status = JobStatus.Funded;
        emit JobFunded(jobId, msg.sender, budget);
        paymentToken.safeTransferFrom(msg.sender, address(this), budget);
    }

    /// @notice Provider signals the work is done; `deliverable` references it (hash, CID, ...).
    function submit(uint256 jobId, bytes32 deliverable) external {
        Job storage job = _job(jobId);
        _requireStatus(jobId, job, JobStatus.Funded);
        if (msg.sender != job.provider) revert Unauthorized(jobId, msg.sender);
        _requireNotExpired(jobId, job);
        job.status = JobStatus.Submitted;
        emit JobSubmitted(jobId, msg.sender, deliverable);
    }

    /// @notice Evaluator accepts the submitted work; the escrow goes to the provider.
    function complete(uint256 jobId, bytes32 reason) external nonReentrant {
        Job storage job = _job(jobId);
        _requireStatus(jobId, job, JobStatus.Submitted);
        if (msg.sender != job.evaluator) revert Unauthorized(jobId, msg.sender);
        _requireNotExpired(jobId, job);

        job.status = JobStatus.Completed;
        uint256 amount = job.budget;
        address provider = job.provider;
        emit JobCompleted(jobId, msg.sender, reason);
        emit PaymentReleased(jobId, provider, amount);
        paymentToken.safeTransfer(provider, amount);
    }

    /// @notice Client rejects an Open job; the evaluator rejects a Funded or Submitted one (refund).
    function reject(uint256 jobId, bytes32 reason) external nonReentrant {
        Job storage job = _job(jobId);
        JobStatus status = job.status;
        if (status == JobStatus.Open) {
            if (msg.sender != job.client) revert Unauthorized(jobId, msg.sender);
            job.status = JobStatus.Rejected;
            emit JobRejected(jobId, msg.sender, reason);
            return;
        }
        if (status != JobStatus.Funded && status != JobStatus.Submitted) revert InvalidStatus(jobId, status);
        if (msg.sender != job.evaluator) revert Unauthorized(jobId, msg.sender);
        _requireNotExpired(jobId, job);

        job.status = JobStatus.Rejected;
        emit JobRejected(jobId, msg.sender, reason);
        _refund(jobId, job);
    }

    /// @notice After expiry, anyone may return the escrow of a Funded or Submitted job to the client.
    ///         Never gated by any other party, so funds cannot be locked forever.
    function claimRefund(uint256 jobId) external nonReentrant {
        Job storage job = _job(jobId);
        JobStatus status = job.status;
        if (status != JobStatus.Funded && status != JobStatus.Submitted) revert InvalidStatus(jobId, status);
        if (block.timestamp < job.expiredAt) revert JobNotExpired(jobId, job.expiredAt);

        job.status = JobStatus.Expired;
        emit JobExpired(jobId);
        _refund(jobId, job);
    }

    // ------------------------------------------------------------------ views

    function getJob(uint256 jobId) external view returns (Job memory) {
        return _job(jobId);
    }

    // ------------------------------------------------------------------ internals

    function _refund(uint256 jobId, Job storage job) private {
        uint256 amount = job.budget;
        address client = job.client;
        emit Refunded(jobId, client, amount);
        paymentToken.safeTransfer(client, amount);
    }

    function _job(uint256 jobId) private view returns (Job storage job) {
        job = _jobs[jobId];
        if (job.client == address(0)) revert JobNotFound(jobId);
    }

    function _requireStatus(uint256 jobId, Job storage job, JobStatus expected) private view {
        if (job.status != expected) revert InvalidStatus(jobId, job.status);
    }

    function _requireNotExpired(uint256 jobId, Job storage job) private view {
        if (block.timestamp >= job.expiredAt) revert JobHasExpired(jobId, job.expiredAt);
    }
}
