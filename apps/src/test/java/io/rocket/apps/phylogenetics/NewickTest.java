package io.rocket.apps.phylogenetics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class NewickTest {

    @Test
    void parse_thenWrite_roundTripsText() {
        String text = "((A:0.1,B:0.25)AB:0.5,'my taxon':1e-3,(C,D:2):0);";
        TreeNode tree = NewickParser.parse(text);

        assertThat(tree.leafLabels()).containsExactly("A", "B", "my taxon", "C", "D");
        assertThat(tree.children().get(0).label()).isEqualTo("AB");
        assertThat(tree.toString()).isEqualTo("((A:0.1,B:0.25)AB:0.5,'my taxon':0.001,(C,D:2):0);");
        assertThat(NewickParser.parse(tree.toString()).toString()).isEqualTo(tree.toString());
    }

    @Test
    void write_labelsNeedingQuotes_quotedAndEscaped() {
        TreeNode tree = TreeNode.internal(TreeNode.leaf("it's", 1), TreeNode.leaf("a,b", 2),
                TreeNode.leaf("E_coli_K12", 3), TreeNode.leaf("(x)", 4));

        assertThat(tree.toString()).isEqualTo("('it''s':1,'a,b':2,E_coli_K12:3,'(x)':4);");
        assertThat(NewickParser.parse(tree.toString()).leafLabels()).containsExactly("it's", "a,b", "E_coli_K12",
                "(x)");
    }

    @Test
    void parse_whitespaceCommentsAndNoSemicolon_accepted() {
        TreeNode tree = NewickParser.parse(" ( A [first] : 1 ,\n B:2 ) [root] ");

        assertThat(tree.toString()).isEqualTo("(A:1,B:2);");
    }

    @Test
    void parse_malformed_throwsWithPosition() {
        assertThatThrownBy(() -> NewickParser.parse("(A,B"))
                .isInstanceOf(NewickFormatException.class).hasMessageContaining("expected ',' or ')'");
        assertThatThrownBy(() -> NewickParser.parse("(A,,B);"))
                .isInstanceOf(NewickFormatException.class).hasMessageContaining("at character 3");
        assertThatThrownBy(() -> NewickParser.parse("(A:x,B);"))
                .isInstanceOf(NewickFormatException.class).hasMessageContaining("branch length");
        assertThatThrownBy(() -> NewickParser.parse("(A,B);(C,D);"))
                .isInstanceOf(NewickFormatException.class).hasMessageContaining("unexpected text");
        assertThatThrownBy(() -> NewickParser.parse("('A,B);"))
                .isInstanceOf(NewickFormatException.class).hasMessageContaining("unterminated");
    }

    @Test
    void parseAndWrite_deepCaterpillar_noStackOverflow() {
        TreeNode tree = TreeNode.leaf("t0", 1);
        for (int i = 1; i < 20_000; i++) {
            tree = TreeNode.internal(List.of(tree, TreeNode.leaf("t" + i, 1)), null, 1);
        }
        String text = tree.toString();

        TreeNode parsed = NewickParser.parse(text);

        assertThat(parsed.leaves()).hasSize(20_000);
        assertThat(parsed.toString()).isEqualTo(text);
    }

    @Property(tries = 50)
    void roundTrip_randomTrees_sameTextAndZeroRf(@ForAll @IntRange(min = 3, max = 40) int taxa,
                                                 @ForAll long seed) {
        TreeNode tree = YuleTree.generate(taxa, 0.7, new SplittableRandom(seed));
        TreeNode parsed = NewickParser.parse(tree.toString());

        assertThat(parsed.toString()).isEqualTo(tree.toString());
        assertThat(RobinsonFoulds.distance(parsed, tree)).isZero();
        List<Double> lengths = new ArrayList<>();
        List<Double> parsedLengths = new ArrayList<>();
        tree.postOrder().forEach(n -> lengths.add(n.branchLength()));
        parsed.postOrder().forEach(n -> parsedLengths.add(n.branchLength()));
        for (int i = 0; i < lengths.size(); i++) {
            if (!lengths.get(i).isNaN()) {
                assertThat(parsedLengths.get(i)).isCloseTo(lengths.get(i),
                        org.assertj.core.api.Assertions.withinPercentage(1e-7));
            }
        }
    }
}
