package io.herald.adapters.port;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How a field of a plug-in's connection form ({@link ChannelPlugin#connectionForm()}) or of an OAuth
 * flow's start ({@link OAuthFlow#startForm()}) is asked for: its label, whether a new connection
 * needs it, and an example to show in the empty field. Whether it is a secret is not said here: a
 * field named as a component of the plug-in's secrets record is one. Read by
 * {@link ConnectionForms#fields}; the console draws its connect forms from it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface FormField {

    /** What a person reads beside the field ("Site URL"). */
    String label();

    /** Whether a new connection (or the start of a connect) needs it. */
    boolean required() default false;

    /** An example shown in the empty field; empty for none. */
    String placeholder() default "";
}
