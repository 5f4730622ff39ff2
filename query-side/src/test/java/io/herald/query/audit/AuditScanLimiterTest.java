package io.herald.query.audit;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AuditScanLimiterTest {

    private final AuditScanLimiter limiter = new AuditScanLimiter(2);

    @Test
    void refusesAThirdScanOfOneWorkspaceButNotAnotherWorkspacesFirst() {
        AuditScanLimiter.Slot first = limiter.acquire("acme");
        limiter.acquire("acme");
        assertThatThrownBy(() -> limiter.acquire("acme")).isInstanceOf(AuditScanLimiter.TooManyScans.class);
        assertThatCode(() -> limiter.acquire("globex")).doesNotThrowAnyException();
        assertThatCode(() -> limiter.acquire(null)).as("the whole store is counted apart").doesNotThrowAnyException();

        first.close();
        assertThatCode(() -> limiter.acquire("acme")).doesNotThrowAnyException();
    }

    @Test
    void aSlotClosedTwiceFreesOnlyItself() {
        AuditScanLimiter.Slot first = limiter.acquire("acme");
        limiter.acquire("acme");
        first.close();
        first.close();
        limiter.acquire("acme");
        assertThatThrownBy(() -> limiter.acquire("acme")).isInstanceOf(AuditScanLimiter.TooManyScans.class);
    }
}
