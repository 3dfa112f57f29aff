// Entry of the hosted checkout script (built to /checkout/assets/checkout.js):
// the checkout, enrolment, renewal and plan-change approval pages share it. The server's page names
// which one this is, and its id, in the JSON island #checkout-data.
import { readIsland } from '../shared/island.js';
import { startPlanPage } from './plan-page.js';
import { startReauthorisationPage } from './reauthorisation-page.js';
import { startRenewalPage } from './renewal-page.js';
import { startSessionPage } from './session-page.js';
import { CHECKOUT_ISLAND_ID, type CheckoutIsland } from '../../src/hosted-pages/checkout-island.js';

const island = readIsland<CheckoutIsland>(CHECKOUT_ISLAND_ID);
if (island?.page === 'renewal') startRenewalPage(island.subscriptionId);
else if (island?.page === 'plan') startPlanPage(island.planId);
else if (island?.page === 'session') startSessionPage(island.sessionId);
else if (island?.page === 'reauthorisation') startReauthorisationPage(island.planChangeId);
else if (island?.page === 'wallet-change') startReauthorisationPage(island.walletChangeId, 'wallet-changes');
