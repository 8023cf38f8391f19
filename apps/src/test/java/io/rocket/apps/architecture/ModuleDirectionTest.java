package io.rocket.apps.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one direction of Rocket's modules, checked on the compiled main classes of every module.
 *
 * <p>Maven already refuses an import of a module that is not a dependency; this test also catches what Maven cannot
 * see: a dependency declared but pointing the wrong way inside the chain, a package in one module reaching up to a
 * package of the same module (the composition from the command line, the cluster from its L3 codec), and package
 * cycles. The chain, lowest first, is drawn in docs/design/architecture.md:
 * core ← cache ← node ← steal ← results ← cluster ← runtime ← apps, with inputs, report and the test kit beside
 * it; the output writers ({@code io.rocket.output}, in the results module) use the core alone.
 */
class ModuleDirectionTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .withImportOption(location -> !location.contains("jmh_generated"))
                .importPackages("io.rocket");
    }

    @Test
    void everyModuleIsOnTheClassPath() {
        for (String pkg : new String[] {"io.rocket.core", "io.rocket.cache", "io.rocket.node", "io.rocket.steal",
                "io.rocket.results", "io.rocket.results.journal", "io.rocket.results.reduce", "io.rocket.cluster",
                "io.rocket.cluster.l3", "io.rocket.inputs", "io.rocket.runtime", "io.rocket.cli",
                "io.rocket.output", "io.rocket.files", "io.rocket.report", "io.rocket.testkit", "io.rocket.apps"}) {
            assertThat(classes.containPackage(pkg)).as(pkg).isTrue();
        }
    }

    @Test
    void modulesDependOnlyDownTheChain() {
        rocketLayers().check(classes);
    }

    @Test
    void noPackageCycles() {
        slices().matching("io.rocket.(**)").should().beFreeOfCycles().check(classes);
    }

    static LayeredArchitecture rocketLayers() {
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("core").definedBy("io.rocket.core..")
                .layer("cache").definedBy("io.rocket.cache..")
                .layer("node").definedBy("io.rocket.node..")
                .layer("steal").definedBy("io.rocket.steal..")
                .layer("results").definedBy("io.rocket.results..")
                .layer("l3").definedBy("io.rocket.cluster.l3..")
                .layer("cluster").definedBy("io.rocket.cluster")
                .layer("inputs").definedBy("io.rocket.inputs..")
                .layer("composition").definedBy("io.rocket.runtime..")
                .layer("output").definedBy("io.rocket.output..")
                .layer("command line").definedBy("io.rocket", "io.rocket.cli..", "io.rocket.files..")
                .layer("report").definedBy("io.rocket.report..")
                .layer("test kit").definedBy("io.rocket.testkit..")
                .layer("apps").definedBy("io.rocket.apps..")
                .whereLayer("core").mayNotAccessAnyLayer()
                .whereLayer("cache").mayOnlyAccessLayers("core")
                .whereLayer("node").mayOnlyAccessLayers("cache", "core")
                .whereLayer("steal").mayOnlyAccessLayers("node", "cache", "core")
                .whereLayer("results").mayOnlyAccessLayers("steal", "core")
                .whereLayer("l3").mayOnlyAccessLayers("node", "cache", "core")
                .whereLayer("cluster").mayOnlyAccessLayers("l3", "results", "steal", "node", "cache", "core")
                .whereLayer("inputs").mayOnlyAccessLayers("core")
                .whereLayer("composition")
                .mayOnlyAccessLayers("cluster", "l3", "results", "steal", "node", "cache", "inputs", "core")
                .whereLayer("output").mayOnlyAccessLayers("core")
                .whereLayer("command line")
                .mayOnlyAccessLayers("composition", "output", "cluster", "l3", "results", "steal", "node", "cache", "inputs",
                        "core")
                .whereLayer("report").mayOnlyAccessLayers("core")
                .whereLayer("test kit").mayOnlyAccessLayers("core")
                .whereLayer("apps").mayOnlyAccessLayers("command line", "composition", "output", "cluster", "l3", "results",
                        "steal", "node", "cache", "inputs", "report", "test kit", "core");
    }
}
