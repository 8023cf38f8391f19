/** What a running job's status endpoint serves that the runtime does not make itself: its live page. */
package io.rocket.core.status;
