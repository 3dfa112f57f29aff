// HTTP routes of agents: configuration, escrow jobs and the activity feed.
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import {
  activityList,
  activityListQuery,
  agentConfig,
  agentJob,
  createJobBody,
  JOB_DECISIONS,
  jobList,
  jobListQuery,
  jobParams,
  settleJobBody,
  updateAgentConfigBody,
} from './schemas.js';
import type { AgentService } from './service.js';

export function registerAgentRoutes(app: FastifyZodInstance, agents: ServiceOn<AgentService>): void {
  app.route({
    method: 'GET',
    url: '/v1/agents/config',
    config: { access: access.scope('agents_read') },
    schema: {
      tags: ['Agents'],
      summary: 'The agent configuration, created with the documented defaults on first read',
      response: { 200: agentConfig },
    },
    handler: (request) => agents(request.db).getConfig(requestScope(request)),
  });

  app.route({
    method: 'PATCH',
    url: '/v1/agents/config',
    config: { access: access.scope('agents_write') },
    schema: {
      tags: ['Agents'],
      summary: 'Update the agent configuration',
      description:
        'Only the keys sent are applied; nested objects are merged key by key. A refused update changes nothing and names the fields in error.details.issues. Each change is an activity record (configuration / config_updated).',
      body: updateAgentConfigBody,
      response: { 200: agentConfig },
    },
    handler: (request) => agents(request.db).updateConfig(requestScope(request), request.body),
  });

  app.route({
    method: 'GET',
    url: '/v1/agents/activity',
    config: { access: access.scope('agents_read') },
    schema: {
      tags: ['Agents'],
      summary: 'The agent activity feed, newest first',
      description: 'Filters combine (AND).',
      querystring: activityListQuery,
      response: { 200: activityList },
    },
    handler: (request) => agents(request.db).listActivity(requestScope(request), request.query),
  });

  app.route({
    method: 'POST',
    url: '/v1/agents/jobs',
    config: { access: access.scope('agents_write') },
    schema: {
      tags: ['Agents'],
      summary: 'Create an escrow job (ERC-8183)',
      description:
        'Auto-approved (status `approved`, then funded on-chain) when amount < requireHumanApprovalAboveUsdCents x 10,000 base units, the vendor is in approvedVendors and the month stays within monthlySpendCapUsdCents; otherwise `proposed` with approvalReasons and agent.job_proposed.',
      body: createJobBody,
      response: { 200: agentJob },
    },
    handler: (request) => agents(request.db).createJob(requestScope(request), request.body),
  });

  app.route({
    method: 'GET',
    url: '/v1/agents/jobs',
    config: { access: access.scope('agents_read') },
    schema: { tags: ['Agents'], summary: 'List escrow jobs', querystring: jobListQuery, response: { 200: jobList } },
    handler: (request) => agents(request.db).listJobs(requestScope(request), request.query),
  });

  app.route({
    method: 'GET',
    url: '/v1/agents/jobs/:id',
    config: { access: access.scope('agents_read') },
    schema: { tags: ['Agents'], summary: 'Retrieve an escrow job', params: jobParams, response: { 200: agentJob } },
    handler: (request) => agents(request.db).getJob(requestScope(request), request.params.id),
  });

  app.route({
    method: 'POST',
    url: '/v1/agents/jobs/:id/approve',
    config: { access: access.scope('agents_write') },
    schema: {
      tags: ['Agents'],
      summary: 'Approve a proposed job',
      description: 'proposed -> approved; the job workflow then funds the escrow. 403 session_invalid_state for a job in any other status.',
      params: jobParams,
      response: { 200: agentJob },
    },
    handler: (request) => agents(request.db).approveJob(requestScope(request), request.params.id),
  });

  for (const decision of JOB_DECISIONS) {
    app.route({
      method: 'POST',
      url: `/v1/agents/jobs/:id/${decision}`,
      config: { access: access.scope('agents_write') },
      schema: {
        tags: ['Agents'],
        summary:
          decision === 'complete'
            ? 'Complete a submitted job (the agent wallet as evaluator)'
            : 'Reject a funded or submitted job (the agent wallet as evaluator)',
        description:
          decision === 'complete'
            ? 'For a job whose evaluator is the agent wallet (the default): the job workflow sends the escrow `complete` from the agent wallet, releasing the budget to the vendor; the job becomes `completed` (agent.job_completed) when it is mined. 403 session_invalid_state unless the job is `submitted` and its evaluator is the agent wallet.'
            : 'For a job whose evaluator is the agent wallet (the default): the job workflow sends the escrow `reject`, refunding the budget to the agent wallet; the job becomes `rejected` (funded) or `disputed` (submitted, agent.job_disputed) when it is mined. 403 session_invalid_state unless the job is `funded` or `submitted` and its evaluator is the agent wallet.',
        params: jobParams,
        body: settleJobBody,
        response: { 200: agentJob },
      },
      handler: (request) => agents(request.db).settleJob(requestScope(request), request.params.id, decision, request.body),
    });
  }
}
