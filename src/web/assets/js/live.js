// Entry of pages that only need live updates (the vendor page).
import { startLive, startLiveFromMain } from './live-core.js';

const options = startLiveFromMain();
if (options) startLive(options);
