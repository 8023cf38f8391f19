package io.rocket.cli;

import io.rocket.testapp.Misfits;
import io.rocket.testapp.NumberDistance;
import io.rocket.testapp.TextSimilarity;
import io.rocket.testapp.WordSimilarity;
import org.assertj.core.api.AbstractStringAssert;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Loading the application class by name: each refusal is one line with its exit code. */
class ApplicationClassTest {

    private static AbstractStringAssert<?> refused(String className, ExitCode code) {
        CommandFailure f = catchThrowableOfType(() -> ApplicationClass.instantiate(className, Invocation.MAIN),
                CommandFailure.class);
        assertThat(f).as(className).isNotNull();
        assertThat(f.exitCode()).as(f.getMessage()).isEqualTo(code);
        assertThat(f.getMessage()).doesNotContain("\n");
        assertThat(f.getStackTrace()).isEmpty();
        return assertThat(f.getMessage());
    }

    @Test
    void aPublicApplicationWithANoArgumentConstructorIsCreated() {
        assertThat(ApplicationClass.instantiate(WordSimilarity.class.getName(), Invocation.MAIN))
                .isInstanceOf(WordSimilarity.class);
        assertThat(ApplicationClass.instantiate(NumberDistance.class.getName(), Invocation.LAUNCHER))
                .isInstanceOf(NumberDistance.class);
    }

    @Test
    void everyUnusableClassIsOneLine() {
        refused("com.example.Nowhere", ExitCode.USAGE).contains("not found").contains(Invocation.MAIN.synopsis());
        refused("target/classes/Foo.class", ExitCode.USAGE).contains("looks like a file name");
        refused("Foo.java", ExitCode.USAGE).contains("looks like a file name");
        refused(Misfits.NotAnApplication.class.getName(), ExitCode.USAGE).contains("not a Rocket application");
        refused(TextSimilarity.class.getName(), ExitCode.USAGE).contains("is abstract");
        refused(Misfits.NeedsArguments.class.getName(), ExitCode.USAGE).contains("no public no-argument constructor");
        refused(Misfits.BrokenConstructor.class.getName(), ExitCode.ERROR).startsWith("cannot create ")
                .contains("no licence for the similarity engine");
    }

    @Test
    void optionsAreFoundInSuperclasses() {
        assertThat(ApplicationClass.declaresOptions(WordSimilarity.class)).isTrue(); // --q in TextSimilarity
        assertThat(ApplicationClass.declaresOptions(NumberDistance.class)).isFalse();
    }
}
