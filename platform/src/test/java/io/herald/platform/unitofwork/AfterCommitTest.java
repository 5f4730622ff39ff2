package io.herald.platform.unitofwork;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class AfterCommitTest {

    @Test
    void workRunsOnlyOnceTheUnitOfWorkCommitted() {
        List<String> done = new ArrayList<>();
        UnitOfWork<?> unitOfWork = DefaultUnitOfWork.startAndGet(null);
        AfterCommit.run("the call", () -> done.add("called"));
        assertThat(done).isEmpty();
        unitOfWork.commit();
        assertThat(done).containsExactly("called");
    }

    @Test
    void aRolledBackUnitOfWorkHandsNothingOn() {
        List<String> done = new ArrayList<>();
        UnitOfWork<?> unitOfWork = DefaultUnitOfWork.startAndGet(null);
        AfterCommit.run("the call", () -> done.add("called"));
        unitOfWork.rollback();
        assertThat(done).isEmpty();
    }

    @Test
    void aFailureAfterTheCommitIsAnErrorNamingTheWorkAndTheOtherHandOffsStillRun() {
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        ((Logger) LoggerFactory.getLogger(AfterCommit.class)).addAppender(logged);
        List<String> done = new ArrayList<>();
        UnitOfWork<?> unitOfWork = DefaultUnitOfWork.startAndGet(null);
        AfterCommit.run("the failing call", () -> {
            throw new IllegalStateException("provider unreachable");
        });
        AfterCommit.run("the next call", () -> done.add("called"));
        unitOfWork.commit();
        assertThat(done).containsExactly("called");
        assertThat(logged.list).singleElement().satisfies(event -> {
            assertThat(event.getLevel()).isEqualTo(Level.ERROR);
            assertThat(event.getFormattedMessage()).contains("the failing call");
        });
    }

    @Test
    void outsideAUnitOfWorkNothingCanBeHandedOn() {
        assertThatThrownBy(() -> AfterCommit.run("the call", () -> { }))
                .isInstanceOf(IllegalStateException.class);
    }
}
