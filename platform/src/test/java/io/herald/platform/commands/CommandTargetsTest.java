package io.herald.platform.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.modelling.command.AnnotationCommandTargetResolver;
import org.axonframework.modelling.command.CommandTargetResolver;
import org.axonframework.modelling.command.TargetAggregateIdentifier;
import org.axonframework.modelling.command.TargetAggregateVersion;
import org.axonframework.modelling.command.VersionedAggregateIdentifier;
import org.junit.jupiter.api.Test;

class CommandTargetsTest {

    private static final CommandTargetResolver AXON = AnnotationCommandTargetResolver.builder().build();
    private final CommandTargets targets = new CommandTargets();

    record Requested(@TargetAggregateIdentifier String publicationId, String entry) {
    }

    record Versioned(@TargetAggregateIdentifier String id, @TargetAggregateVersion long version) {
    }

    static class FieldCommand {
        @TargetAggregateIdentifier
        final Object id;
        @TargetAggregateVersion
        final String version;

        FieldCommand(Object id, String version) {
            this.id = id;
            this.version = version;
        }
    }

    static class InheritedCommand extends FieldCommand {
        InheritedCommand(Object id) {
            super(id, null);
        }
    }

    static class MethodCommand {
        private final String id;

        MethodCommand(String id) {
            this.id = id;
        }

        @TargetAggregateIdentifier
        String target() {
            return "target-" + id;
        }
    }

    static class FailingCommand {
        @TargetAggregateIdentifier
        String target() {
            throw new IllegalStateException("no target");
        }
    }

    record Untargeted(String id) {
    }

    @Test
    void answersAsAxonsResolverDoes() {
        for (Object command : List.of(new Requested("p-1", "e-1"), new Versioned("p-2", 7),
                new FieldCommand(42, "3"), new InheritedCommand("p-3"), new MethodCommand("p-4"),
                new Requested("p-5", "e-5"))) {
            VersionedAggregateIdentifier expected = AXON.resolveTarget(GenericCommandMessage.asCommandMessage(command));
            // twice: the second answer comes from what the first found
            assertThat(resolve(command)).isEqualTo(expected);
            assertThat(resolve(command)).isEqualTo(expected);
        }
        assertThat(resolve(new Versioned("p-2", 7)).getVersion()).isEqualTo(7L);
        assertThat(resolve(new FieldCommand(42, "3"))).isEqualTo(new VersionedAggregateIdentifier((Object) 42, 3L));
        assertThat(resolve(new MethodCommand("p-4")).getIdentifier()).isEqualTo("target-p-4");
        assertThat(resolve(new InheritedCommand("p-3")).getVersion()).isNull();
    }

    @Test
    void refusesAsAxonsResolverDoes() {
        for (Object command : List.of(new Untargeted("p-1"), new FieldCommand(null, "1"), new FieldCommand("p-1", "x"),
                new FailingCommand())) {
            Throwable axon = thrown(() -> AXON.resolveTarget(GenericCommandMessage.asCommandMessage(command)));
            assertThatThrownBy(() -> resolve(command))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(axon.getMessage())
                    .satisfies(ours -> assertThat(ours.getCause() == null ? null : ours.getCause().getClass())
                            .isEqualTo(axon.getCause() == null ? null : axon.getCause().getClass()));
        }
    }

    private VersionedAggregateIdentifier resolve(Object command) {
        return targets.resolveTarget(GenericCommandMessage.asCommandMessage(command));
    }

    private static Throwable thrown(Runnable call) {
        try {
            call.run();
        } catch (IllegalArgumentException e) {
            return e;
        }
        throw new AssertionError("Axon's resolver accepted the command");
    }
}
