package io.herald.deploy.architecture;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Every serializer is Jackson, so XStream (a deserialization gadget magnet) is not even on the classpath. */
class DependencyHygieneTest {

    @Test
    void xstreamIsNotOnTheRuntimeClasspath() {
        assertThatThrownBy(() -> Class.forName("com.thoughtworks.xstream.XStream"))
                .isInstanceOf(ClassNotFoundException.class);
    }
}
