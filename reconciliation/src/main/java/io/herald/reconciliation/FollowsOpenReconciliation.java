package io.herald.reconciliation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a saga event handler: the handler only matters to a reconciliation already under way, so an
 * event marked {@link io.herald.contracts.publication.ReconciliationHint#NEVER_OPENED} does not
 * match it (see {@link ReconciliationHintFilter}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface FollowsOpenReconciliation {
}
