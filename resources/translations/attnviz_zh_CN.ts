<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Chart</name>
    <message>
        <source>offset j − i (key position minus query position)</source>
        <translation>偏移 j − i（键位置减查询位置）</translation>
    </message>
    <message>
        <source>Mean weight at each offset, %1, 1 sentence</source>
        <extracomment>%1 block and layer, %2 how many sentences</extracomment>
        <translation>各偏移处的平均权重，%1，1 个句子</translation>
    </message>
    <message>
        <source>Mean weight at each offset, %1, %2 sentences</source>
        <translation>各偏移处的平均权重，%1，%2 个句子</translation>
    </message>
    <message>
        <source>the head&apos;s mean weight</source>
        <translation>该头的平均权重</translation>
    </message>
    <message>
        <source>its Gaussian fit</source>
        <translation>其高斯拟合</translation>
    </message>
    <message>
        <source>Pruning the heads of %1 (%2 sentences)</source>
        <extracomment>%1 a model&apos;s name, %2 how many sentences</extracomment>
        <translation>%1 的注意力头剪枝（%2 个句子）</translation>
    </message>
    <message>
        <source>heads removed</source>
        <translation>已移除的头数</translation>
    </message>
    <message>
        <source>loss (cross-entropy, nats)</source>
        <translation>损失（交叉熵，nats）</translation>
    </message>
    <message>
        <source>random order</source>
        <translation>随机顺序</translation>
    </message>
    <message>
        <source>least important first</source>
        <translation>最不重要的先移除</translation>
    </message>
    <message>
        <source>Mean attention distance by layer (%1 images)</source>
        <extracomment>The distance-by-layer chart&apos;s title: %1 how many images the means are over</extracomment>
        <translation>各层的平均注意力距离（%1 张图像）</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>mean attention distance (pixels), a dot per head</source>
        <translation>平均注意力距离（像素），每个头一个点</translation>
    </message>
    <message>
        <source>uniform attention (%1 px)</source>
        <extracomment>The reference line of the distance chart: %1 its value in pixels</extracomment>
        <translation>均匀注意力（%1 像素）</translation>
    </message>
    <message>
        <source>%1 · layer %2 · %3 · %4 px</source>
        <extracomment>A dot of the distance chart: %1 the model, %2 the layer, %3 the head (e.g. &quot;head 3&quot;), %4 its mean attention distance in pixels</extracomment>
        <translation>%1 · 第 %2 层 · %3 · %4 像素</translation>
    </message>
</context>
<context>
    <name>Figure</name>
    <message>
        <source>⁇ marks a word the model does not know: it reads &lt;unk&gt; there.</source>
        <translation>⁇ 标记模型不认识的词：模型在该处读到的是 &lt;unk&gt;。</translation>
    </message>
    <message>
        <source>enc self</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>dec self</source>
        <translation>解码器自注意力</translation>
    </message>
    <message>
        <source>cross</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>%1 · layer %2</source>
        <extracomment>A column title when every layer of one model is shown: %1 model, %2 layer number (counted from 1)</extracomment>
        <translation>%1 · 第 %2 层</translation>
    </message>
    <message>
        <source>head %1</source>
        <extracomment>A panel&apos;s head: %1 its number, counted from 1</extracomment>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>mean of %1 heads</source>
        <translation>%1 个头的平均</translation>
    </message>
    <message>
        <source>rollout through L1–L%1</source>
        <extracomment>Attention rollout through the layers from the first (L1) to the layer %1 (from 1)</extracomment>
        <translation>L1–L%1 的注意力展开（rollout）</translation>
    </message>
    <message>
        <source>words</source>
        <extracomment>Subword pieces merged into words</extracomment>
        <translation>整词</translation>
    </message>
    <message>
        <source>words, CJK by character</source>
        <extracomment>Subword pieces merged into words; Chinese, Japanese and Korean text one word per character</extracomment>
        <translation>整词，中日韩文字按字</translation>
    </message>
    <message>
        <source>Gaussian</source>
        <extracomment>The Gaussian fit subtracted in a residual panel&apos;s title</extracomment>
        <translation>高斯</translation>
    </message>
    <message>
        <source>no %1 block
in layer %2</source>
        <translation>第 %2 层中
没有%1模块</translation>
    </message>
    <message>
        <source>Query %1</source>
        <extracomment>A query profile&apos;s title: %1 the query token&apos;s place in the sentence, counted from 1</extracomment>
        <translation>查询 %1</translation>
    </message>
    <message>
        <source>%1, every head</source>
        <translation>%1，所有头</translation>
    </message>
    <message>
        <source>every model, mean of heads</source>
        <translation>所有模型，各头平均</translation>
    </message>
    <message>
        <source>step %1</source>
        <extracomment>A training snapshot: %1 the step number</extracomment>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>%1 during training · &quot;%2&quot;</source>
        <extracomment>A filmstrip&apos;s title: %1 the model, %2 the probe sentence</extracomment>
        <translation>%1 训练过程 · “%2”</translation>
    </message>
    <message>
        <source>%1 × %2 cells do not fit beside labels of %3 pt: a larger page, fewer panels or smaller labels</source>
        <translation>%1 × %2 个格子放不下（标签为 %3 pt）：请使用更大的页面、更少的面板或更小的标签</translation>
    </message>
    <message>
        <source>Token labels at %1 pt: one in every %2 shown.</source>
        <extracomment>Footnote of a figure: %1 the labels&apos; size in points, %2 how many tokens per label</extracomment>
        <translation>词元标签为 %1 pt：每 %2 个词元标出一个。</translation>
    </message>
    <message>
        <source>Query: patch (row %1, column %2), outlined.</source>
        <extracomment>A figure&apos;s footnote: %1 and %2 the query patch&apos;s grid row and column, from 1</extracomment>
        <translation>查询：图块（第 %1 行，第 %2 列），已描边。</translation>
    </message>
    <message>
        <source>Query: the class token.</source>
        <translation>查询：类别词元。</translation>
    </message>
    <message>
        <source>Query: what the classifier reads: the class token (pool cls) or the mean of the patch rows (pool mean).</source>
        <translation>查询：分类器读取的内容：类别词元（pool cls）或各图块行的均值（pool mean）。</translation>
    </message>
    <message>
        <source>%1st</source>
        <extracomment>Ordinal numbers (1st, 2nd, 3rd, 4th…) of a token that occurs more than once</extracomment>
        <translation>第 %1 个</translation>
    </message>
    <message>
        <source>%1nd</source>
        <translation>第 %1 个</translation>
    </message>
    <message>
        <source>%1rd</source>
        <translation>第 %1 个</translation>
    </message>
    <message>
        <source>%1th</source>
        <translation>第 %1 个</translation>
    </message>
    <message>
        <source>(%1)</source>
        <extracomment>After a token that occurs more than once: which one it is, e.g. &quot;to (2nd)&quot;</extracomment>
        <translation>（%1）</translation>
    </message>
    <message>
        <source>Query: patch (row %1, column %2).</source>
        <translation>查询：图块（第 %1 行，第 %2 列）。</translation>
    </message>
</context>
<context>
    <name>attnviz::Engine</name>
    <message>
        <source>Fashion-MNIST images (vision)</source>
        <translation>Fashion-MNIST 图像（视觉）</translation>
    </message>
    <message>
        <source>Dot-product vs hard-coded Gaussian (HC-SA)</source>
        <translation>点积注意力 vs 硬编码高斯注意力（HC-SA）</translation>
    </message>
    <message>
        <source>The hard-coded attention paper&apos;s four (You et al. 2020)</source>
        <translation>硬编码注意力论文的四个模型（You 等，2020）</translation>
    </message>
    <message>
        <source>The Synthesizer family (Tay et al. 2021) beside dot</source>
        <translation>Synthesizer 家族（Tay 等，2021）与点积对照</translation>
    </message>
    <message>
        <source>Every model of the set</source>
        <translation>该组的全部模型</translation>
    </message>
    <message>
        <source>English → Spanish (real text, subwords)</source>
        <translation>英语 → 西班牙语（真实文本，子词）</translation>
    </message>
    <message>
        <source>Toy translation (152 words, exact alignments)</source>
        <translation>玩具翻译任务（152 个词，精确对齐）</translation>
    </message>
    <message>
        <source>English language models (real text)</source>
        <translation>英语语言模型（真实文本）</translation>
    </message>
    <message>
        <source>Toy language models</source>
        <translation>玩具语言模型</translation>
    </message>
    <message>
        <source>dot-product (Vaswani et al., 2017)</source>
        <translation>点积（Vaswani et al., 2017）</translation>
    </message>
    <message>
        <source>dense synthesizer</source>
        <translation>稠密合成器</translation>
    </message>
    <message>
        <source>random synthesizer</source>
        <translation>随机合成器</translation>
    </message>
    <message>
        <source>fixed random synthesizer</source>
        <translation>固定随机合成器</translation>
    </message>
    <message>
        <source>factorized dense synthesizer</source>
        <translation>分解稠密合成器</translation>
    </message>
    <message>
        <source>factorized random synthesizer</source>
        <translation>分解随机合成器</translation>
    </message>
    <message>
        <source>random + dot synthesizer</source>
        <translation>随机 + 点积合成器</translation>
    </message>
    <message>
        <source>dense + dot synthesizer</source>
        <translation>稠密 + 点积合成器</translation>
    </message>
    <message>
        <source>HC-SA: Gaussian self-attention, learned cross-attention</source>
        <translation>HC-SA：高斯自注意力，可学习的交叉注意力</translation>
    </message>
    <message>
        <source>all hard-coded: Gaussian self- and cross-attention</source>
        <translation>全部硬编码：高斯自注意力与交叉注意力</translation>
    </message>
    <message>
        <source>HC-SA + one learned cross-attention head</source>
        <translation>HC-SA + 一个可学习的交叉注意力头</translation>
    </message>
    <message>
        <source>learned local window (w = 2)</source>
        <translation>可学习的局部窗口（w = 2）</translation>
    </message>
    <message>
        <source>copy</source>
        <translation>复制（copy）</translation>
    </message>
    <message>
        <source>reverse</source>
        <translation>倒序（reverse）</translation>
    </message>
    <message>
        <source>sort</source>
        <translation>排序（sort）</translation>
    </message>
    <message>
        <source>translate</source>
        <translation>翻译（translate）</translation>
    </message>
    <message>
        <source>lm</source>
        <translation>语言模型（lm）</translation>
    </message>
    <message>
        <source>Dot-product attention (Vaswani et al., 2017): query-key similarity.</source>
        <translation>点积注意力（Vaswani et al., 2017）：查询与键的相似度。</translation>
    </message>
    <message>
        <source>Dense synthesizer (Tay et al., 2021): each token predicts its own row of weights over positions, without looking at the keys.</source>
        <translation>稠密合成器（Tay et al., 2021）：每个词元自行预测它对各位置的一行权重，不参考键。</translation>
    </message>
    <message>
        <source>Random synthesizer (Tay et al., 2021): one table of weights per head, the same for every sentence; trainable or fixed.</source>
        <translation>随机合成器（Tay et al., 2021）：每个头一张权重表，对所有句子都相同；可训练或固定。</translation>
    </message>
    <message>
        <source>Factorized dense synthesizer (Tay et al., 2021): two short predictions of lengths a and b whose outer product gives a row of length L = a*b.</source>
        <translation>分解稠密合成器（Tay et al., 2021）：两个长度分别为 a 和 b 的短预测，其外积给出长度 L = a*b 的一行。</translation>
    </message>
    <message>
        <source>Factorized random synthesizer (Tay et al., 2021): a rank-k table per head, the same for every sentence.</source>
        <translation>分解随机合成器（Tay et al., 2021）：每个头一张秩为 k 的表，对所有句子都相同。</translation>
    </message>
    <message>
        <source>Mixture of synthesizers (Tay et al., 2021), e.g. random + dot: a learned convex combination of the components&apos; logits.</source>
        <translation>合成器的混合（Tay et al., 2021），如随机 + 点积：各组成部分 logits 的可学习凸组合。</translation>
    </message>
    <message>
        <source>Hard-coded Gaussian attention (You, Sun &amp; Iyyer, 2020): fixed windows centred at an offset from each query position; nothing is learned.</source>
        <translation>硬编码高斯注意力（You, Sun &amp; Iyyer, 2020）：以每个查询位置加一个偏移为中心的固定窗口；不学习任何参数。</translation>
    </message>
    <message>
        <source>Learned local window: each head learns how much to attend to each relative position −w…w and ignores everything further away; no query-key comparison.</source>
        <translation>可学习的局部窗口：每个头学习对每个相对位置 −w…w 的关注程度，更远处一概忽略；没有查询与键的比较。</translation>
    </message>
    <message>
        <source>centre o_h of head h&apos;s window relative to the query (heads cycle through the list); default [-1, 1], in decoder self-attention [-1, 0]</source>
        <translation>头 h 的窗口中心 o_h，相对于查询位置（各头依次循环使用列表）；默认 [-1, 1]，解码器自注意力中为 [-1, 0]</translation>
    </message>
    <message>
        <source>standard deviation of every window, in positions</source>
        <translation>每个窗口的标准差，以位置为单位</translation>
    </message>
    <message>
        <source>renormalise each row over its unmasked keys (the paper does not)</source>
        <translation>对每一行在未遮盖的键上重新归一化（论文中没有这样做）</translation>
    </message>
    <message>
        <source>cross-attention only: window centre r*i + o_h, r ~ source/target length</source>
        <translation>仅用于交叉注意力：窗口中心 r*i + o_h，r ≈ 源句长度/目标句长度</translation>
    </message>
    <message>
        <source>Learned Gaussian window (our 1D reading of Cordonnier, Loukas &amp; Jaggi, 2020): each head learns the centre and width of a Gaussian over relative positions; no query-key comparison.</source>
        <translation>可学习的高斯窗口（我们对 Cordonnier, Loukas &amp; Jaggi, 2020 的一维解读）：每个头学习相对位置上一个高斯的中心和宽度；没有查询与键的比较。</translation>
    </message>
    <message>
        <source>starting centre mu_h of head h&apos;s window relative to the query (heads cycle through the list); default [-1, 0, 1], in decoder self-attention [-1, 0]</source>
        <translation>头 h 的窗口的起始中心 mu_h，相对于查询位置（各头依次循环使用列表）；默认 [-1, 0, 1]，解码器自注意力中为 [-1, 0]</translation>
    </message>
    <message>
        <source>starting width sigma of every head&apos;s window, in positions</source>
        <translation>每个头的窗口的起始宽度 sigma，以位置为单位</translation>
    </message>
    <message>
        <source>Real clothing photos (colour images)</source>
        <translation>真实衣物照片（彩色图像）</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::AnalysisRunner</name>
    <message>
        <source>the analysis failed: %1</source>
        <translation>分析失败：%1</translation>
    </message>
    <message>
        <source>an image model: it reads images, not sentences (choose the image set in the Models box)</source>
        <translation>图像模型：它读取的是图像而不是句子（请在“模型”框中选择图像模型集）</translation>
    </message>
    <message>
        <source>a text model: it reads sentences, not images</source>
        <translation>文本模型：它读取的是句子而不是图像</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ClothingPhotos</name>
    <message>
        <source>T-Shirt</source>
        <translation>T恤</translation>
    </message>
    <message>
        <source>Longsleeve</source>
        <translation>长袖上衣</translation>
    </message>
    <message>
        <source>Pants</source>
        <translation>长裤</translation>
    </message>
    <message>
        <source>Shoes</source>
        <translation>鞋</translation>
    </message>
    <message>
        <source>Shirt</source>
        <translation>衬衫</translation>
    </message>
    <message>
        <source>Dress</source>
        <translation>连衣裙</translation>
    </message>
    <message>
        <source>Outwear</source>
        <translation>外套</translation>
    </message>
    <message>
        <source>Shorts</source>
        <translation>短裤</translation>
    </message>
    <message>
        <source>Skirt</source>
        <translation>半身裙</translation>
    </message>
    <message>
        <source>Hat</source>
        <translation>帽子</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ColorBar</name>
    <message>
        <source>Colour scale shared by every panel: 0 to the largest weight in view</source>
        <translation>所有面板共用的色阶：从 0 到视图中的最大权重</translation>
    </message>
    <message>
        <source>difference</source>
        <extracomment>Colour bar title: the scale shows differences (or attention weights)</extracomment>
        <translation>差值</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ColumnFiles</name>
    <message>
        <source>unknown error while reading it</source>
        <translation>读取时发生未知错误</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ComparisonGrid</name>
    <message>
        <source>%1 and %3 have different head counts here (%2 and %4): the heads of separately trained models do not correspond, so there is no head-by-head difference. Layout › Mean compares their maps.</source>
        <extracomment>In a panel of the &quot;− column 1&quot; view: %1 this model, %2 its head count, %3 the first column&apos;s model, %4 its head count</extracomment>
        <translation>%1 与 %3 在此处的头数不同（%2 与 %4）：分别训练的模型的头并不一一对应，因此无法逐头求差。布局 › 平均 可比较它们的注意力图。</translation>
    </message>
    <message>
        <source>updating…</source>
        <extracomment>Over a panel whose map is of an earlier sentence, while the new one is analysed</extracomment>
        <translation>正在更新…</translation>
    </message>
    <message>
        <source>decoding…
the %1 maps follow</source>
        <extracomment>In a panel: the model decodes the sentence; its decoder maps come next. %1: the block shown (&quot;cross&quot;, &quot;dec self&quot;)</extracomment>
        <translation>正在解码…
%1 的注意力图随后显示</translation>
    </message>
    <message>
        <source>Move &amp;left</source>
        <translation>左移(&amp;L)</translation>
    </message>
    <message>
        <source>Move &amp;right</source>
        <translation>右移(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Remove column</source>
        <translation>移除列(&amp;R)</translation>
    </message>
    <message>
        <source>(untrained)</source>
        <extracomment>Column header: the model was never trained (random weights)</extracomment>
        <translation>（未训练）</translation>
    </message>
    <message>
        <source>BLEU %1</source>
        <extracomment>Column header: the model&apos;s held-out BLEU score, e.g. &quot;BLEU 15.9&quot;</extracomment>
        <translation>BLEU %1</translation>
    </message>
    <message>
        <source>acc %1%</source>
        <extracomment>Column header: the model&apos;s held-out token accuracy, e.g. &quot;acc 35.1%&quot;</extracomment>
        <translation>准确率 %1%</translation>
    </message>
    <message>
        <source>AER %1</source>
        <extracomment>Column header: the best head&apos;s alignment error rate, e.g. &quot;AER 0.41&quot;</extracomment>
        <translation>AER %1</translation>
    </message>
    <message>
        <source>BLEU: the greedy translations against the references, 0–100, higher is better</source>
        <translation>BLEU：贪心解码的译文与参考译文对比，0–100，越高越好</translation>
    </message>
    <message>
        <source>acc: the share of next tokens predicted right (teacher forcing), higher is better</source>
        <translation>准确率：正确预测下一个词元的比例（教师强制），越高越好</translation>
    </message>
    <message>
        <source>AER: alignment error rate of the best head&apos;s (or layer&apos;s) cross-attention against reference word alignments, 0–1, lower is better</source>
        <translation>AER：最佳注意力头（或层）的交叉注意力相对参考词对齐的对齐错误率，0–1，越低越好</translation>
    </message>
    <message>
        <source>examples not trained on</source>
        <extracomment>Column header tooltip: the examples the metrics were measured on, e.g. &quot;the first 200 usable lines of dev.tsv&quot;</extracomment>
        <translation>未参与训练的样本</translation>
    </message>
    <message>
        <source>&lt;b&gt;Held-out quality&lt;/b&gt;, recorded in the checkpoint when it was trained, on %1:</source>
        <translation>&lt;b&gt;留出集质量&lt;/b&gt;（训练时记入检查点），评测样本：%1：</translation>
    </message>
    <message>
        <source>&lt;b&gt;Output&lt;/b&gt;: %1</source>
        <extracomment>Column header tooltip: the model&apos;s decoded output sentence</extracomment>
        <translation>&lt;b&gt;输出&lt;/b&gt;：%1</translation>
    </message>
    <message>
        <source>%1 of %2 words unknown</source>
        <translation>%2 个词中 %1 个未知</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 of %2 words are unknown to this model&lt;/b&gt; (it sees &amp;lt;unk&amp;gt;; their labels end in ⁇)</source>
        <translation>&lt;b&gt;%2 个词中有 %1 个是该模型不认识的&lt;/b&gt;（模型看到的是 &amp;lt;unk&amp;gt;；这些词的标签以 ⁇ 结尾）</translation>
    </message>
    <message>
        <source>fixed random</source>
        <extracomment>Column header: the random synthesizer whose table is not trained</extracomment>
        <translation>固定随机</translation>
    </message>
    <message>
        <source>%1 (%2: %3)</source>
        <extracomment>Column header: the model&apos;s variant, then the block shown and its own variant, e.g. &quot;dense (cross: dot)&quot;</extracomment>
        <translation>%1（%2：%3）</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ExportDialog</name>
    <message>
        <source>Export figure</source>
        <translation>导出图</translation>
    </message>
    <message>
        <source>One panel (clicked model)</source>
        <translation>单个面板（所点击的模型）</translation>
    </message>
    <message>
        <source>Query profile</source>
        <translation>查询分布</translation>
    </message>
    <message>
        <source>Loss curves</source>
        <translation>损失曲线</translation>
    </message>
    <message>
        <source>Head of the clicked model for “One panel”</source>
        <translation>“单个面板”所用的头（属于所点击的模型）</translation>
    </message>
    <message>
        <source>Single column 3.5 in (252 × 189 pt)</source>
        <translation>单栏 3.5 in（252 × 189 pt）</translation>
    </message>
    <message>
        <source>Double column 7 in (504 × 360 pt)</source>
        <translation>双栏 7 in（504 × 360 pt）</translation>
    </message>
    <message>
        <source>Custom</source>
        <extracomment>Figure size: a size typed in</extracomment>
        <translation>自定义</translation>
    </message>
    <message>
        <source> dpi (PNG)</source>
        <extracomment>Spin box suffix: the resolution of PNG files</extracomment>
        <translation> dpi (PNG)</translation>
    </message>
    <message>
        <source> pt</source>
        <extracomment>Spin box suffix: the unit of the font size (points)</extracomment>
        <translation> pt</translation>
    </message>
    <message>
        <source>Colour bar</source>
        <translation>颜色条</translation>
    </message>
    <message>
        <source>&amp;Figure</source>
        <extracomment>Form label: what the figure shows</extracomment>
        <translation>图(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Head</source>
        <extracomment>Form label: the attention head</extracomment>
        <translation>头(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Size</source>
        <extracomment>Form label: the figure&apos;s page size</extracomment>
        <translation>尺寸(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Resolution</source>
        <translation>分辨率(&amp;R)</translation>
    </message>
    <message>
        <source>F&amp;ont</source>
        <translation>字体(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Title</source>
        <extracomment>Form label: the figure&apos;s title</extracomment>
        <translation>标题(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>SVG (*.svg);;PDF (*.pdf);;PNG (*.png)</source>
        <translation>SVG (*.svg);;PDF (*.pdf);;PNG (*.png)</translation>
    </message>
    <message>
        <source>wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>The language of the figure&apos;s titles, axis titles and legends; tokens are never translated</source>
        <translation>图中标题、坐标轴标题和图例所用的语言；词元从不翻译</translation>
    </message>
    <message>
        <source>&amp;Labels in</source>
        <extracomment>Form label: the language of the figure&apos;s titles and legends</extracomment>
        <translation>标注语言(&amp;L)</translation>
    </message>
    <message>
        <source>Slide 16:9 (13.33 × 7.5 in)</source>
        <translation>幻灯片 16:9（13.33 × 7.5 in）</translation>
    </message>
    <message>
        <source>Slide 4:3 (10 × 7.5 in)</source>
        <translation>幻灯片 4:3（10 × 7.5 in）</translation>
    </message>
    <message>
        <source> px</source>
        <extracomment>Spin box suffix: the PNG&apos;s width and height in pixels</extracomment>
        <translation> px</translation>
    </message>
    <message>
        <source>The PNG&apos;s exact size; the page in points follows at the resolution</source>
        <translation>PNG 的精确像素尺寸；以 pt 计的页面尺寸按分辨率随之改变</translation>
    </message>
    <message>
        <source>The grid as shown</source>
        <translation>当前显示的网格</translation>
    </message>
    <message>
        <source>The columns shown, in their order, with the view&apos;s block, layer and heads</source>
        <translation>显示的列（按其顺序），以及视图的模块、层和头</translation>
    </message>
    <message>
        <source>Ca&amp;ption: the sentence and its translation</source>
        <translation>题注：句子及其译文(&amp;P)</translation>
    </message>
    <message>
        <source>PN&amp;G size</source>
        <extracomment>Form label: the PNG file&apos;s size in pixels</extracomment>
        <translation>PNG 尺寸(&amp;G)</translation>
    </message>
    <message>
        <source>Label si&amp;ze</source>
        <extracomment>Form label: the size of the token labels (points)</extracomment>
        <translation>标签大小(&amp;Z)</translation>
    </message>
    <message>
        <source>SVG, PDF: %1 × %2 pt (%3 × %4 in) · PNG: %5 × %6 px at %7 dpi · labels %8 pt (%9 px in the PNG)</source>
        <extracomment>Export status: %1 × %2 the page in points, %3 × %4 in inches, %5 × %6 the PNG&apos;s pixels, %7 its dpi, %8 the labels&apos; points, %9 their height in the PNG&apos;s pixels</extracomment>
        <translation>SVG、PDF：%1 × %2 pt（%3 × %4 in）· PNG：%5 × %6 px，%7 dpi · 标签 %8 pt（PNG 中为 %9 px）</translation>
    </message>
    <message>
        <source>O&amp;utline the query</source>
        <translation>为查询加框(&amp;U)</translation>
    </message>
    <message>
        <source>A frame around the clicked query (red around a row of every map, black and white around a patch of every image); without it the query is still labelled</source>
        <translation>在点击的查询周围加框（热力图中一行为红框，图像中一个图块为黑白框）；不加框时查询仍有标注</translation>
    </message>
    <message>
        <source>Token labels and panel titles, in points on the page (in a PNG: points × dpi / 72 pixels); titles are larger. Until you change it, it follows the size: up to 12 pt on a slide (smaller, down to 7 pt, where a label per token needs it), 7 pt on a paper&apos;s figure</source>
        <translation>词元标签和面板标题的大小，以页面上的 pt 计（PNG 中为 pt × dpi / 72 像素）；标题更大。在您修改之前，它随页面尺寸变化：幻灯片上最大 12 pt（若每个词元都要有标签则缩小，最小 7 pt），论文插图中为 7 pt</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ExportSources</name>
    <message>
        <source>nothing to export yet</source>
        <translation>尚无可导出的内容</translation>
    </message>
    <message>
        <source>click a query token first</source>
        <translation>请先点击一个查询词元</translation>
    </message>
    <message>
        <source>no loss curves yet: train a model in the Training tab</source>
        <translation>尚无损失曲线：请在“训练”停靠窗口中训练模型</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::FashionMnist</name>
    <message>
        <source>T-shirt/top</source>
        <translation>T恤/上衣</translation>
    </message>
    <message>
        <source>Trouser</source>
        <translation>裤子</translation>
    </message>
    <message>
        <source>Pullover</source>
        <translation>套头衫</translation>
    </message>
    <message>
        <source>Dress</source>
        <translation>连衣裙</translation>
    </message>
    <message>
        <source>Coat</source>
        <translation>外套</translation>
    </message>
    <message>
        <source>Sandal</source>
        <translation>凉鞋</translation>
    </message>
    <message>
        <source>Shirt</source>
        <translation>衬衫</translation>
    </message>
    <message>
        <source>Sneaker</source>
        <translation>运动鞋</translation>
    </message>
    <message>
        <source>Bag</source>
        <translation>包</translation>
    </message>
    <message>
        <source>Ankle boot</source>
        <translation>短靴</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::FilmDock</name>
    <message>
        <source>&amp;Open probe file…</source>
        <translation>打开探针文件(&amp;O)…</translation>
    </message>
    <message>
        <source>E&amp;xport filmstrip…</source>
        <translation>导出快照序列图(&amp;X)…</translation>
    </message>
    <message>
        <source>&amp;Save probe…</source>
        <translation>保存探针(&amp;S)…</translation>
    </message>
    <message>
        <source>Train with a probe sentence (Training tab: &apos;Record attention over training&apos;) or open a probe file written by attnviz-cli train --probe</source>
        <translation>使用探针句子训练（“训练”停靠窗口：“记录训练过程中的注意力”），或打开由 attnviz-cli train --probe 写入的探针文件</translation>
    </message>
    <message>
        <source>A probe file (M.probe.json) written by attnviz-cli train --probe S --probe-every K --out M.safetensors</source>
        <translation>由 attnviz-cli train --probe S --probe-every K --out M.safetensors 写入的探针文件（M.probe.json）</translation>
    </message>
    <message>
        <source>The chosen block, layer and heads at five evenly spaced steps (every step when there are six or fewer), a column per step, as SVG, PDF or PNG</source>
        <translation>所选模块、层和头在五个等间隔训练步上的快照（不超过六步时显示每一步），每步一列，格式为 SVG、PDF 或 PNG</translation>
    </message>
    <message>
        <source>Training step</source>
        <translation>训练步</translation>
    </message>
    <message>
        <source>Write these snapshots as a probe file (JSON, docs/analysis.md), to open later or draw with attnviz-cli render --probe; a run trained here is lost otherwise</source>
        <translation>将这些快照写入探针文件（JSON，见 docs/analysis.md），以便稍后打开或用 attnviz-cli render --probe 绘制；否则在此训练的结果将会丢失</translation>
    </message>
    <message>
        <source>%1 holds no snapshots</source>
        <translation>%1 不含快照</translation>
    </message>
    <message>
        <source>%1 · no snapshots</source>
        <translation>%1 · 无快照</translation>
    </message>
    <message>
        <source>%1 · “%2” · step %3 (%4/%5) · no target: the rows are each snapshot&apos;s own decoded output</source>
        <extracomment>The probe&apos;s caption: the run, “the sentence”, the step and which snapshot of how many</extracomment>
        <translation>%1 · “%2” · 第 %3 步（%4/%5）· 无目标句：每一行是各快照自身的解码输出</translation>
    </message>
    <message>
        <source>%1 · “%2” · step %3 (%4/%5)</source>
        <translation>%1 · “%2” · 第 %3 步（%4/%5）</translation>
    </message>
    <message>
        <source>step %1 of %2 (a snapshot every %3 steps)</source>
        <translation>第 %1 步，共 %2 步（每 %3 步一个快照）</translation>
    </message>
    <message>
        <source>step %1</source>
        <extracomment>A heatmap&apos;s title: the training step it shows</extracomment>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>%1 · step %2 · %3</source>
        <extracomment>A heatmap&apos;s tooltip title: the run, the training step, the block and head</extracomment>
        <translation>%1 · 第 %2 步 · %3</translation>
    </message>
    <message>
        <source>no snapshots yet: train with a probe sentence or open a probe file</source>
        <translation>尚无快照：请使用探针句子训练，或打开探针文件</translation>
    </message>
    <message>
        <source>no steps chosen for the filmstrip</source>
        <translation>未为快照序列图选择任何步</translation>
    </message>
    <message>
        <source>Open training probe</source>
        <translation>打开训练探针</translation>
    </message>
    <message>
        <source>Probe files (*.probe.json);;All files (*)</source>
        <translation>探针文件 (*.probe.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open the probe file: %1</source>
        <translation>无法打开探针文件：%1</translation>
    </message>
    <message>
        <source>opened %1: %2 snapshots of %3</source>
        <translation>已打开 %1：%3 的 %2 个快照</translation>
    </message>
    <message>
        <source>no snapshots to save</source>
        <translation>没有可保存的快照</translation>
    </message>
    <message>
        <source>Save probe</source>
        <translation>保存探针</translation>
    </message>
    <message>
        <source>Cannot save the probe: %1</source>
        <translation>无法保存探针：%1</translation>
    </message>
    <message>
        <source>wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>Export filmstrip</source>
        <translation>导出快照序列图</translation>
    </message>
    <message>
        <source>Cannot export the filmstrip: %1</source>
        <translation>无法导出快照序列图：%1</translation>
    </message>
    <message>
        <source>SVG (*.svg);;PDF (*.pdf);;PNG (*.png)</source>
        <translation>SVG (*.svg);;PDF (*.pdf);;PNG (*.png)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::FolderColumns</name>
    <message>
        <source>watching %1: %2 was removed (its column stays)</source>
        <translation>正在监视 %1：%2 已被移除（其列保留）</translation>
    </message>
    <message>
        <source>A folder could not be watched</source>
        <translation>无法监视文件夹</translation>
    </message>
    <message>
        <source>watching %1: no checkpoints yet</source>
        <translation>正在监视 %1：尚无检查点</translation>
    </message>
    <message>
        <source>stopped watching %1 (its columns stay)</source>
        <translation>已停止监视 %1（其列保留）</translation>
    </message>
    <message>
        <source>A checkpoint in the watched folder could not be opened (tried again when the file changes)</source>
        <translation>无法打开所监视文件夹中的一个检查点（文件变化时会重试）</translation>
    </message>
    <message>
        <source>A checkpoint in the watched folder cannot be read (tried again when the file changes)</source>
        <translation>无法读取所监视文件夹中的一个检查点（文件变化时会重试）</translation>
    </message>
    <message>
        <source>watching %1: updated %2 (step %3)</source>
        <translation>正在监视 %1：已更新 %2（第 %3 步）</translation>
    </message>
    <message>
        <source>watching %1: updated %2</source>
        <translation>正在监视 %1：已更新 %2</translation>
    </message>
    <message>
        <source>watching %1: added %2</source>
        <translation>正在监视 %1：已添加 %2</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::FolderWatch</name>
    <message>
        <source>the folder does not exist</source>
        <translation>文件夹不存在</translation>
    </message>
    <message>
        <source>it is not a folder</source>
        <translation>不是文件夹</translation>
    </message>
    <message>
        <source>the folder cannot be read</source>
        <translation>无法读取该文件夹</translation>
    </message>
    <message>
        <source>Cannot watch %1: %2</source>
        <translation>无法监视 %1：%2</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeadsDock</name>
    <message>
        <source>%1 of %2 · this image · distance in pixels</source>
        <translation>%1（%2）· 本图像 · 距离以像素计</translation>
    </message>
    <message>
        <source>Messages (%1)</source>
        <extracomment>Heads dock: the toggle that shows or hides the folded messages</extracomment>
        <translation>消息（%1）</translation>
    </message>
    <message>
        <source>Over the sentence list</source>
        <translation>按句子列表统计</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Pruning curves</source>
        <translation>剪枝曲线</translation>
    </message>
    <message>
        <source>Heads</source>
        <extracomment>Accessible name of the table of attention heads</extracomment>
        <translation>注意力头</translation>
    </message>
    <message>
        <source>Filter by model</source>
        <translation>按模型筛选</translation>
    </message>
    <message>
        <source>Statistics over every sentence of the Sentences dock: entropy, confidence, distance and Gaussian fit averaged over the set; input dependence; importance (Michel et al. 2019) when the lines have targets (&quot;source TAB target&quot;), or for language models. Shown until another sentence is chosen.</source>
        <translation>对“句子”停靠窗口中的每个句子进行统计：熵、置信度、距离和高斯拟合取整个集合上的平均；输入依赖度；当各行带有目标句（“源句 TAB 目标句”）时，或对于语言模型，还有重要性（Michel et al. 2019）。一直显示，直到选择另一个句子。</translation>
    </message>
    <message>
        <source>Sentences analysed and models finished</source>
        <translation>已分析的句子数和已完成的模型数</translation>
    </message>
    <message>
        <source>Stop the computation over the sentence list or the pruning (the table and the curves stay as they are)</source>
        <translation>停止对句子列表的统计或剪枝（表格和曲线保持不变）</translation>
    </message>
    <message>
        <source>Pruning curves (Michel et al. 2019) of the model beside: its heads removed one by one, least important first and in a random order (seed %1), loss and BLEU over the same sentences after each removal, in a window of their own. Needs the importance of a computation over the sentence list (&quot;source TAB target&quot; lines, or a language model)</source>
        <translation>旁边所选模型的剪枝曲线（Michel et al. 2019）：逐个移除其头，分别按最不重要的优先和随机顺序（种子 %1），每次移除后在相同句子上计算损失和 BLEU，结果显示在单独的窗口中。需要先按句子列表统计得到重要性（使用“源句 TAB 目标句”格式的行，或语言模型）</translation>
    </message>
    <message>
        <source>The model to prune: those with importance over the sentence list</source>
        <translation>要剪枝的模型：仅列出已按句子列表统计出重要性的模型</translation>
    </message>
    <message>
        <source>No models</source>
        <translation>没有模型</translation>
    </message>
    <message>
        <source>No statistics: no model could analyse the sentence</source>
        <translation>无统计结果：没有模型能分析该句子</translation>
    </message>
    <message>
        <source>%1 of %2 · current sentence</source>
        <translation>%1（%2）· 当前句子</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
    <message>
        <source>Over the sentence list: cancelled, the models or the sentences changed</source>
        <translation>按句子列表统计：已取消，模型或句子已更改</translation>
    </message>
    <message>
        <source>Pruning curves: the models or the sentences changed; compute over the sentence list again</source>
        <translation>剪枝曲线：模型或句子已更改；请重新按句子列表统计</translation>
    </message>
    <message>
        <source>no models</source>
        <translation>没有模型</translation>
    </message>
    <message>
        <source>the sentence list has %1; statistics over a set need 2 or more (File › Open sentence list…)</source>
        <translation>句子列表只有 %1；集合统计至少需要 2 个句子（文件 › 打开句子列表…）</translation>
    </message>
    <message>
        <source>Over the sentence list: %1</source>
        <translation>按句子列表统计：%1</translation>
    </message>
    <message>
        <source>Over the sentence list: cancelled</source>
        <translation>按句子列表统计：已取消</translation>
    </message>
    <message>
        <source>Pruning curves: cancelled</source>
        <translation>剪枝曲线：已取消</translation>
    </message>
    <message>
        <source>%1 · shown until another sentence is chosen</source>
        <translation>%1 · 一直显示，直到选择另一个句子</translation>
    </message>
    <message>
        <source>no model has importance yet: compute over the sentence list first, with &quot;source TAB target&quot; lines (or a language model)</source>
        <translation>尚无模型具有重要性：请先按句子列表统计，使用“源句 TAB 目标句”格式的行（或使用语言模型）</translation>
    </message>
    <message>
        <source>choose a model</source>
        <translation>请选择一个模型</translation>
    </message>
    <message>
        <source>a computation is running</source>
        <translation>有计算正在进行</translation>
    </message>
    <message>
        <source>Pruning curves: %1</source>
        <translation>剪枝曲线：%1</translation>
    </message>
    <message>
        <source>Pruning curves of %1: computing over %2…</source>
        <translation>%1 的剪枝曲线：正在基于 %2 计算…</translation>
    </message>
    <message>
        <source>Evaluations: heads removed least important first, then in a random order</source>
        <translation>评估次数：先按最不重要的优先移除头，再按随机顺序移除</translation>
    </message>
    <message>
        <source>Pruning curves of %1 failed: %2</source>
        <translation>%1 的剪枝曲线计算失败：%2</translation>
    </message>
    <message>
        <source>Pruning curves of %1 (%2): in their window</source>
        <translation>%1 的剪枝曲线（%2）：已显示在单独的窗口中</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>导出(&amp;X)…</translation>
    </message>
    <message>
        <source>Write the curves as SVG, PDF or PNG, as attnviz-cli render --prune</source>
        <translation>将曲线保存为 SVG、PDF 或 PNG，与 attnviz-cli render --prune 相同</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Pruning curves · %1</source>
        <translation>剪枝曲线 · %1</translation>
    </message>
    <message>
        <source>%1 heads removed one by one, least important first (normalised importance) and in a random order (seed %2); loss and BLEU over the %3 the importance was computed over.</source>
        <translation>逐个移除 %1 个头，分别按最不重要的优先（归一化重要性）和随机顺序（种子 %2）；损失和 BLEU 在计算重要性所用的 %3上求得。</translation>
    </message>
    <message>
        <source>no pruning curves yet</source>
        <translation>尚无剪枝曲线</translation>
    </message>
    <message>
        <source>Export pruning curves</source>
        <translation>导出剪枝曲线</translation>
    </message>
    <message>
        <source>SVG (*.svg);;PDF (*.pdf);;PNG (*.png)</source>
        <translation>SVG (*.svg);;PDF (*.pdf);;PNG (*.png)</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>Cannot export the curves: %1</source>
        <translation>无法导出曲线：%1</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <source>%1 · %2 shown</source>
        <extracomment>%1: the status line; %2: how many rows the filter keeps</extracomment>
        <translation>%1 · 显示 %2 行</translation>
    </message>
    <message>
        <source>Distance by layer</source>
        <translation>各层距离</translation>
    </message>
    <message>
        <source>The chart of mean attention distance by layer (Dosovitskiy et al. 2021, Fig. 7): a dot per head, a colour per model, on the image shown; the dashed line is uniform attention&apos;s distance</source>
        <translation>各层平均注意力距离图（Dosovitskiy 等，2021，图 7）：每个头一个点，每个模型一种颜色，基于当前显示的图像；虚线为均匀注意力的距离</translation>
    </message>
    <message>
        <source>No image model has analysed the image.</source>
        <translation>没有图像模型分析过该图像。</translation>
    </message>
    <message>
        <source>Mean attention distance by layer, on this image</source>
        <translation>各层的平均注意力距离（当前图像）</translation>
    </message>
    <message>
        <source>Mean attention distance by layer, over %1 test images</source>
        <translation>各层的平均注意力距离（%1 张测试图像）</translation>
    </message>
    <message>
        <source>Over test images: cancelled</source>
        <translation>按测试图像统计：已取消</translation>
    </message>
    <message>
        <source>no image models</source>
        <translation>没有图像模型</translation>
    </message>
    <message>
        <source>the test images are not loaded (yet)</source>
        <translation>测试图像（尚未）加载</translation>
    </message>
    <message>
        <source>Over test images: %1</source>
        <translation>按测试图像统计：%1</translation>
    </message>
    <message>
        <source>Test images analysed and models finished</source>
        <translation>已分析的测试图像数和已完成的模型数</translation>
    </message>
    <message>
        <source>Over test images: dropped, the models changed meanwhile</source>
        <translation>按测试图像统计：已丢弃，其间模型已更改</translation>
    </message>
    <message>
        <source>%1 · shown until another image is chosen</source>
        <translation>%1 · 一直显示，直到选择另一张图像</translation>
    </message>
    <message>
        <source>No image model&apos;s name contains “%1”.</source>
        <extracomment>The distance chart when the Heads dock&apos;s filter keeps no model: %1 the filter</extracomment>
        <translation>没有名称包含“%1”的图像模型。</translation>
    </message>
    <message>
        <source>Each head&apos;s mean attention distance over the first %1 %2 test images (all of them where there are fewer), as docs/results.md gives it (Dosovitskiy et al. 2021, Fig. 7), in the table and the chart. Shown until another image is chosen.</source>
        <extracomment>%2 the image set: &quot;Fashion-MNIST&quot;, &quot;clothing-photo&quot;</extracomment>
        <translation>每个头在前 %1 张%2测试图像（不足时为全部）上的平均注意力距离，与 docs/results.md 中的算法相同（Dosovitskiy 等，2021，图 7），显示在表格和图表中。一直显示，直到选择另一张图像。</translation>
    </message>
    <message>
        <source>Over test images</source>
        <translation>按测试图像统计</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeadsTable</name>
    <message>
        <source>No two sentences of the list have the same number of tokens for this table (source tokens for encoder self-attention, target tokens for decoder self-attention, both for cross-attention, in this model&apos;s tokenizer): nothing to compare. Add sentences of equal length.</source>
        <translation>对于此表，列表中没有两个句子的词元数相同（编码器自注意力看源端词元，解码器自注意力看目标端词元，交叉注意力两者都看，按此模型的分词器计）：无可比较。请添加长度相同的句子。</translation>
    </message>
    <message>
        <source>Input dependence compares sentences: it is computed over the sentence list only (&quot;Over the sentence list&quot;), — for the current sentence.</source>
        <translation>输入依赖度比较的是不同句子：只在句子列表上计算（“基于句子列表”），当前句子显示为 —。</translation>
    </message>
    <message>
        <source>Input dependence is — for %1: it compares the rows of one query position across sentences whose table has the same shape, so it needs at least 2 sentences of the list with the same number of tokens in the model&apos;s tokenizer (source tokens for encoder self-attention, target tokens for decoder self-attention, both for cross-attention).</source>
        <extracomment>Heads dock footnote: %1 &quot;3 heads&quot;. The rule of core/head_stats.h inputDependence.</extracomment>
        <translation>%1 的输入依赖度为 —：它在表形状相同的句子之间比较同一查询位置的行，因此需要列表中至少 2 个在该模型分词器下词元数相同的句子（编码器自注意力看源端词元，解码器自注意力看目标端词元，交叉注意力两者都看）。</translation>
    </message>
    <message>
        <source>%1 head</source>
        <translation>%1 个头</translation>
    </message>
    <message>
        <source>%1 heads</source>
        <translation>%1 个头</translation>
    </message>
    <message>
        <source>%1 model</source>
        <translation>%1 个模型</translation>
    </message>
    <message>
        <source>%1 models</source>
        <translation>%1 个模型</translation>
    </message>
    <message>
        <source>%1 column</source>
        <translation>%1 列</translation>
    </message>
    <message>
        <source>%1 columns</source>
        <translation>%1 列</translation>
    </message>
    <message>
        <source>%1 sentence</source>
        <translation>%1 个句子</translation>
    </message>
    <message>
        <source>%1 sentences</source>
        <translation>%1 个句子</translation>
    </message>
    <message>
        <source>%1 line</source>
        <translation>%1 行</translation>
    </message>
    <message>
        <source>%1 lines</source>
        <translation>%1 行</translation>
    </message>
    <message>
        <source>The head statistics could not be computed: %1</source>
        <translation>无法计算头的统计量：%1</translation>
    </message>
    <message>
        <source>%1: no sentence could be analysed (%2)</source>
        <extracomment>A failed model column: its name, then the reason. Keep &quot;%1: &quot; at the start (the list of failures groups them by what follows it).</extracomment>
        <translation>%1：无法分析任何句子（%2）</translation>
    </message>
    <message>
        <source>%1: %2 of %3 skipped (first: %4)</source>
        <extracomment>%1 the model, %2 &quot;3 sentences&quot;, %3 their total, %4 the first error</extracomment>
        <translation>%1：跳过了 %2（共 %3 个；第一个错误：%4）</translation>
    </message>
    <message>
        <source>%1: no importance: %2</source>
        <translation>%1：无法计算重要性：%2</translation>
    </message>
    <message>
        <source>%1: importance over %2 of %3 (%4 empty or too long)</source>
        <extracomment>%1 the model, %2 &quot;3 sentences&quot;, %3 their total, %4 how many were unusable</extracomment>
        <translation>%1：重要性基于其中 %2（共 %3 个；%4 个为空或过长）</translation>
    </message>
    <message>
        <source>%1: no importance: every sentence is empty or too long</source>
        <translation>%1：无法计算重要性：所有句子均为空或过长</translation>
    </message>
    <message>
        <source>%1 of %2 · %3</source>
        <extracomment>Heads dock status: &quot;48 heads of 2 models · 10 sentences&quot;</extracomment>
        <translation>%1（%2）· %3</translation>
    </message>
    <message>
        <source>%1 without a target: no importance for seq2seq models (it needs &quot;source TAB target&quot; lines)</source>
        <translation>%1没有目标句：seq2seq 模型无法计算重要性（需要“源句 TAB 目标句”格式的行）</translation>
    </message>
    <message>
        <source>%1 without a target: importance of seq2seq models over the other %2</source>
        <translation>%1没有目标句：seq2seq 模型的重要性基于其余 %2 行</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1失败：%2</translation>
    </message>
    <message>
        <source>μ is at its bound (± the number of keys): the head puts its weight on the first (or last) key, a sink rather than a local window.</source>
        <translation>μ 处于边界（± 键的数量）：该头将权重集中在第一个（或最后一个）键上，是汇聚点（sink）而非局部窗口。</translation>
    </message>
    <message>
        <source>Over %1 query rows of sentences of the same length</source>
        <translation>基于等长句子的 %1 个查询行</translation>
    </message>
    <message>
        <source>E|∂L/∂ξ| = %1 before normalising</source>
        <translation>归一化前 E|∂L/∂ξ| = %1</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>变体</translation>
    </message>
    <message>
        <source>Entropy</source>
        <translation>熵</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <source>Distance</source>
        <translation>距离</translation>
    </message>
    <message>
        <source>μ</source>
        <translation>μ</translation>
    </message>
    <message>
        <source>σ</source>
        <translation>σ</translation>
    </message>
    <message>
        <source>R²</source>
        <translation>R²</translation>
    </message>
    <message>
        <source>Input dep.</source>
        <translation>输入依赖度</translation>
    </message>
    <message>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <source>The model column (sorting by it gives back the workspace&apos;s order)</source>
        <translation>模型所在的列（按此排序即恢复工作区中的顺序）</translation>
    </message>
    <message>
        <source>Encoder self-attention, decoder self-attention or cross-attention</source>
        <translation>编码器自注意力、解码器自注意力或交叉注意力</translation>
    </message>
    <message>
        <source>The block&apos;s layer, from 0</source>
        <translation>模块所在的层，从 0 开始</translation>
    </message>
    <message>
        <source>The head within its block, from 0</source>
        <translation>头在其模块中的编号，从 0 开始</translation>
    </message>
    <message>
        <source>The block&apos;s attention variant</source>
        <translation>该模块的注意力变体</translation>
    </message>
    <message>
        <source>Mean entropy −Σ_j p_ij ln p_ij of the query rows, in nats: 0 when all weight is on one key, ln N when spread evenly over N keys</source>
        <translation>各查询行的平均熵 −Σ_j p_ij ln p_ij，单位为 nat：全部权重集中在一个键上时为 0，均匀分布在 N 个键上时为 ln N</translation>
    </message>
    <message>
        <source>Mean over the query rows of the largest weight max_j p_ij (Voita et al. 2019): near 1, each query looks at one key</source>
        <translation>各查询行最大权重 max_j p_ij 的平均值（Voita et al. 2019）：接近 1 时，每个查询只关注一个键</translation>
    </message>
    <message>
        <source>Mean over the query rows of Σ_j p_ij |i − j|: how far a query looks, in positions</source>
        <translation>各查询行 Σ_j p_ij |i − j| 的平均值：查询关注的距离，以位置数计</translation>
    </message>
    <message>
        <source>μ: the centre j − i of the Gaussian window that best fits the head (−1: the previous token). At ± the number of keys (the bound), a sink at the start or end of the row</source>
        <translation>μ：最佳拟合该头的高斯窗口的中心 j − i（−1 表示前一个词元）。取值为 ± 键的数量（边界）时，表示行首或行尾的汇聚点（sink）</translation>
    </message>
    <message>
        <source>σ: the width of that best-fitting Gaussian window, in positions</source>
        <translation>σ：该最佳拟合高斯窗口的宽度，以位置数计</translation>
    </message>
    <message>
        <source>R² = 1 − SSE / Σ (p_ij − p̄)² of that Gaussian window: 1 when the head is exactly such a window</source>
        <translation>该高斯窗口的 R² = 1 − SSE / Σ (p_ij − p̄)²：当该头恰好就是这样一个窗口时为 1</translation>
    </message>
    <message>
        <source>Input dependence (our definition): the rows of all sentences grouped by the table&apos;s shape and the query position i; the mean, over every pair of sentences in a group, of the total-variation distance ½ Σ_j |p_ij − p′_ij| between their rows. From 0 to 1: exactly 0 for heads whose weights depend on positions only (Gaussian windows, random synthesizers), above 0 for dot-product. Only sentences of the same length are compared. Over the sentence list only (— otherwise, and when no two sentences have the same length)</source>
        <translation>输入依赖度（本程序的定义）：将所有句子的行按表格形状和查询位置 i 分组；对组内每一对句子，计算其对应行之间的总变差距离 ½ Σ_j |p_ij − p′_ij|，再取平均值。取值范围为 0 到 1：权重仅取决于位置的头（高斯窗口、随机合成器）恰好为 0，点积注意力则大于 0。只比较长度相同的句子。仅基于句子列表计算（否则，或没有两个句子长度相同时，显示 —）</translation>
    </message>
    <message>
        <source>Head importance (Michel, Levy &amp; Neubig 2019): I_h = E_x |∂L(x)/∂ξ_h| at ξ = 1, with ξ_h a gate on the head&apos;s output and L(x) the summed token cross-entropy of sentence x under teacher forcing, divided by the ℓ2 norm of its block&apos;s scores as in the paper. It needs reference targets: &quot;source TAB target&quot; lines for translation models; a language model&apos;s line is its own target. Normalised within each block, so compare heads of one block: a block with one head scores 1 by construction. Over the sentence list only (— otherwise)</source>
        <translation>头重要性（Michel, Levy &amp; Neubig 2019）：I_h = E_x |∂L(x)/∂ξ_h|，在 ξ = 1 处计算，其中 ξ_h 是作用于该头输出的门控，L(x) 是句子 x 在教师强制（teacher forcing）下各词元交叉熵之和；并按论文做法除以其所在模块各头得分的 ℓ2 范数。需要参考目标句：翻译模型需要“源句 TAB 目标句”格式的行；语言模型的每一行以自身为目标。在每个模块内归一化，因此应比较同一模块中的头：只有一个头的模块按定义得分为 1。仅基于句子列表计算（否则显示 —）</translation>
    </message>
    <message>
        <source>%1. Over every sentence of the sentence list (all their rows; one Gaussian fit for all), each row normalised over its allowed keys (docs/analysis.md).</source>
        <extracomment>%1 a column&apos;s tooltip (a statistic), completed with what it is computed over</extracomment>
        <translation>%1。基于句子列表中的所有句子（其全部行；所有句子共用一次高斯拟合），每行在其允许的键上归一化（见 docs/analysis.md）。</translation>
    </message>
    <message>
        <source>%1. Over the current sentence, each row normalised over its allowed keys (docs/analysis.md).</source>
        <extracomment>%1 a column&apos;s tooltip (a statistic), completed with what it is computed over</extracomment>
        <translation>%1。基于当前句子，每行在其允许的键上归一化（见 docs/analysis.md）。</translation>
    </message>
    <message>
        <source>%1, each row normalised over its allowed keys (docs/analysis.md).</source>
        <extracomment>%1 a column&apos;s tooltip (a statistic), completed with how its rows are normalised</extracomment>
        <translation>%1，每行在其允许的键上归一化（见 docs/analysis.md）。</translation>
    </message>
    <message>
        <source>a few seconds left</source>
        <translation>还剩几秒</translation>
    </message>
    <message>
        <source>about %1 s left</source>
        <extracomment>Time a computation has left, estimated; %1 seconds (a multiple of 5)</extracomment>
        <translation>约剩 %1 秒</translation>
    </message>
    <message>
        <source>about %1 min left</source>
        <extracomment>Time a computation has left, estimated; %1 minutes</extracomment>
        <translation>约剩 %1 分钟</translation>
    </message>
    <message>
        <source>about %1 h %2 min left</source>
        <extracomment>Time a computation has left, estimated; %1 hours, %2 minutes</extracomment>
        <translation>约剩 %1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>Sentence %1 of %2</source>
        <translation>第 %1 句，共 %2 句</translation>
    </message>
    <message>
        <source>Image %1 of %2</source>
        <extracomment>Heads dock, over test images: the image being analysed (%1) of all of them (every model&apos;s, %2)</extracomment>
        <translation>第 %1 张图像，共 %2 张</translation>
    </message>
    <message>
        <source>%1 of %2 · distance in pixels over %3 test images (only the distance: the other statistics are of one image at a time)</source>
        <extracomment>Heads dock status over test images: %1 &quot;44 heads&quot;, %2 &quot;11 models&quot;, %3 how many images</extracomment>
        <translation>%1（%2）· %3 张测试图像上的距离，以像素计（仅距离；其他统计量针对单张图像）</translation>
    </message>
    <message>
        <source>%1 · model %2 of %3</source>
        <extracomment>%1: &quot;Sentence 3 of 40&quot;; %2, %3: the model being analysed and how many there are</extracomment>
        <translation>%1 · 第 %2 个模型，共 %3 个</translation>
    </message>
    <message>
        <source>Evaluation %1 of %2</source>
        <extracomment>Heads dock, pruning curves: the evaluation running (%1) of all of them (%2)</extracomment>
        <translation>第 %1 次评估，共 %2 次</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeatmapPanel</name>
    <message>
        <source>%1
query %2 &quot;%3&quot; → key %4 &quot;%5&quot;
weight %6
⁇ marks a word this model does not know (it sees &lt;unk&gt;)</source>
        <extracomment>A cell&apos;s tooltip: the panel&apos;s title, the query row and its token, the key column and its token, the weight</extracomment>
        <translation>%1
查询 %2 “%3” → 键 %4 “%5”
权重 %6
⁇ 表示该模型不认识的词（模型看到的是 &lt;unk&gt;）</translation>
    </message>
    <message>
        <source>%1
query %2 &quot;%3&quot; → key %4 &quot;%5&quot;
weight %6</source>
        <translation>%1
查询 %2 “%3” → 键 %4 “%5”
权重 %6</translation>
    </message>
    <message>
        <source>labels: 1 in %1 tokens</source>
        <extracomment>Below a map whose token labels were thinned to fit: %1 tokens per label shown</extracomment>
        <translation>标签：每 %1 个词元标 1 个</translation>
    </message>
    <message>
        <source>Click: this query row, outlined in every panel</source>
        <extracomment>Last line of a heatmap cell&apos;s tooltip and the tooltip of a query label</extracomment>
        <translation>点击：在每个面板中描出这一查询行</translation>
    </message>
    <message>
        <source>query %1 &quot;%2&quot;</source>
        <extracomment>Tooltip of a query label left of a heatmap: %1 its position, %2 its token</extracomment>
        <translation>查询 %1 “%2”</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ImageChooser</name>
    <message>
        <source>Every class</source>
        <translation>所有类别</translation>
    </message>
    <message>
        <source>Open image…</source>
        <translation>打开图像…</translation>
    </message>
    <message>
        <source>Your own image (PNG, JPEG, BMP, …); you can also drop one on the window or paste it (Ctrl+V)</source>
        <translation>你自己的图像（PNG、JPEG、BMP 等）；也可以把图像拖放到窗口上或粘贴（Ctrl+V）</translation>
    </message>
    <message>
        <source>Invert:</source>
        <translation>反色：</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Fashion-MNIST items are light on black: auto inverts an image whose border is light</source>
        <translation>Fashion-MNIST 的物品是黑底浅色：“自动”会把边缘较亮的图像反色</translation>
    </message>
    <message>
        <source>Your image</source>
        <translation>你的图像</translation>
    </message>
    <message>
        <source>Test image %1: %2</source>
        <translation>测试图像 %1：%2</translation>
    </message>
    <message>
        <source>The image could not be opened</source>
        <translation>无法打开该图像</translation>
    </message>
    <message>
        <source>Your image: %1</source>
        <translation>你的图像：%1</translation>
    </message>
    <message>
        <source>Your pasted image</source>
        <translation>你粘贴的图像</translation>
    </message>
    <message>
        <source>The clipboard holds no image.</source>
        <translation>剪贴板中没有图像。</translation>
    </message>
    <message>
        <source> (inverted)</source>
        <translation>（已反色）</translation>
    </message>
    <message>
        <source>Open image</source>
        <translation>打开图像</translation>
    </message>
    <message>
        <source>Images (%1)</source>
        <translation>图像 (%1)</translation>
    </message>
    <message>
        <source>The workspace&apos;s image could not be shown</source>
        <translation>无法显示工作区中的图像</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop opening the image; the image shown stays</source>
        <translation>停止打开图像；保留当前显示的图像</translation>
    </message>
    <message>
        <source>Opening the pasted image…</source>
        <translation>正在打开粘贴的图像…</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <source>Opening the image was cancelled.</source>
        <translation>已取消打开图像。</translation>
    </message>
    <message>
        <source>Photo:</source>
        <translation>照片：</translation>
    </message>
    <message>
        <source>cut out the garment</source>
        <translation>抠出衣物</translation>
    </message>
    <message>
        <source>whole image</source>
        <translation>整幅图像</translation>
    </message>
    <message>
        <source>Cut out: the garment is separated from its background by colour and texture (GrabCut), cropped, centred and inverted as Fashion-MNIST&apos;s items are. Whole image: the image is made 28 × 28 as it is.</source>
        <translation>抠出：按颜色和纹理把衣物从背景中分离（GrabCut），像 Fashion-MNIST 的商品图那样裁剪、居中并反相。整幅图像：图像按原样变为 28 × 28。</translation>
    </message>
    <message>
        <source>%1 (no garment cut out: %2)</source>
        <translation>%1（没有抠出衣物：%2）</translation>
    </message>
    <message>
        <source>Your image with the garment found outlined, and the garment cropped; the models read it as the 28 × 28 image on the right</source>
        <translation>你的图像，找到的衣物已描出轮廓，以及裁剪后的衣物；模型读取的是右边的 28 × 28 图像</translation>
    </message>
    <message>
        <source>No garment was cut out (%1): the whole image is used</source>
        <translation>没有抠出衣物（%1）：使用整幅图像</translation>
    </message>
    <message>
        <source>Which %1 test images the strip shows</source>
        <extracomment>%1 the image set: &quot;Fashion-MNIST&quot;, &quot;clothing-photo&quot;</extracomment>
        <translation>图像条中显示哪些%1测试图像</translation>
    </message>
    <message>
        <source>Loading the %1 test images…</source>
        <extracomment>%1 the image set: &quot;Fashion-MNIST&quot;, &quot;clothing-photo&quot;</extracomment>
        <translation>正在加载%1测试图像…</translation>
    </message>
    <message>
        <source>The %1 test images could not be read</source>
        <translation>无法读取%1测试图像</translation>
    </message>
    <message>
        <source>Test image %1 is not among the %2 %3 test images.</source>
        <extracomment>%3 the image set: &quot;Fashion-MNIST&quot;, &quot;clothing-photo&quot;</extracomment>
        <translation>测试图像 %1 不在 %2 张%3测试图像之中。</translation>
    </message>
    <message>
        <source>The %1 × %1 %2 image the models see</source>
        <extracomment>%1 the side in pixels (28, 64); %2 &quot;grayscale&quot; or &quot;colour&quot;</extracomment>
        <translation>模型看到的 %1 × %1 %2图像</translation>
    </message>
    <message>
        <source>colour</source>
        <translation>彩色</translation>
    </message>
    <message>
        <source>grayscale</source>
        <translation>灰度</translation>
    </message>
    <message>
        <source>: your photo as it is, its longer side scaled to %1 pixels and the rest filled with its mean colour, as the clothing photos were made</source>
        <translation>：您的照片原样读入，长边缩放到 %1 像素，其余部分用照片的平均颜色填充，与服装照片数据集的制作方式相同</translation>
    </message>
    <message>
        <source>Cut out: the garment is separated from its background by colour and texture (GrabCut) and set on gray, as the photos these models learned from were. Whole image: the photo fitted as it is.</source>
        <translation>抠出：按颜色和纹理把衣物从背景中分离（GrabCut），放在灰色背景上，与这些模型学习所用的照片一致。整幅图像：照片按原样缩放。</translation>
    </message>
    <message>
        <source>Your image with the garment found outlined, and the garment cropped on gray; the models read it as the %1 × %1 image on the right</source>
        <translation>你的图像，找到的衣物已描出轮廓，以及裁剪后放在灰色背景上的衣物；模型读取的是右边的 %1 × %1 图像</translation>
    </message>
    <message>
        <source>: your photo with the garment cut out on gray, as the photos these models learned from were made</source>
        <translation>：你的照片，衣物已抠出并放在灰色背景上，与这些模型学习所用的照片制作方式一致</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ImageGrid</name>
    <message>
        <source>No image models are open.</source>
        <translation>没有打开的图像模型。</translation>
    </message>
    <message>
        <source>Choose an image above.</source>
        <translation>请在上方选择一张图像。</translation>
    </message>
    <message>
        <source>Click for the probability of every class</source>
        <extracomment>Tooltip of an image model&apos;s column header</extracomment>
        <translation>点击查看每个类别的概率</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>accuracy %1 %</source>
        <extracomment>An image model&apos;s column header: its held-out accuracy, e.g. &quot;accuracy 89.0 %&quot;</extracomment>
        <translation>准确率 %1 %</translation>
    </message>
    <message>
        <source>images not trained on</source>
        <translation>未用于训练的图像</translation>
    </message>
    <message>
        <source>&lt;b&gt;Held-out accuracy&lt;/b&gt;, recorded in the checkpoint when it was trained: %3 % of %2 images right (%1)</source>
        <extracomment>Tooltip of an image model&apos;s column header: %1 the images, %2 how many, %3 the accuracy</extracomment>
        <translation>&lt;b&gt;留出集准确率&lt;/b&gt;，训练时记录在检查点中：%2 张图像中 %3 % 判断正确（%1）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Per class&lt;/b&gt;: being computed…</source>
        <extracomment>Tooltip of an image model&apos;s column header while its per-class accuracy is computed</extracomment>
        <translation>&lt;b&gt;各类别&lt;/b&gt;：正在计算…</translation>
    </message>
    <message>
        <source>&lt;b&gt;Per class&lt;/b&gt;: the held-out images could not be read (%1)</source>
        <extracomment>Tooltip of an image model&apos;s column header: %1 why the images could not be read</extracomment>
        <translation>&lt;b&gt;各类别&lt;/b&gt;：无法读取留出集图像（%1）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Per class&lt;/b&gt;: none, the model does not read the images and classes of a bundled image set (Fashion-MNIST, the clothing photos)</source>
        <extracomment>Tooltip of an image model&apos;s column header</extracomment>
        <translation>&lt;b&gt;各类别&lt;/b&gt;：无，该模型读取的不是内置图像集（Fashion-MNIST、服装照片）的图像和类别</translation>
    </message>
    <message>
        <source>&lt;b&gt;Per class&lt;/b&gt;, on the %1 validation clothing photos (never trained on, but the checkpoint was chosen on them; test accuracy: docs/results.md):</source>
        <extracomment>Tooltip of an image model&apos;s column header, above each class&apos;s accuracy: %1 how many photos (406)</extracomment>
        <translation>&lt;b&gt;各类别&lt;/b&gt;准确率，基于 %1 张服装照片验证集（从未用于训练，但检查点是据此选出的；测试集准确率见 docs/results.md）：</translation>
    </message>
    <message>
        <source>&lt;b&gt;Per class&lt;/b&gt;, on the last %1 Fashion-MNIST training images (held out, never trained on; test accuracy: docs/results.md):</source>
        <extracomment>Tooltip of an image model&apos;s column header, above each class&apos;s accuracy: %1 how many images (5,000)</extracomment>
        <translation>&lt;b&gt;各类别&lt;/b&gt;准确率，基于 Fashion-MNIST 最后 %1 张训练图像（留出集，从未用于训练；测试集准确率见 docs/results.md）：</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ImageTasks</name>
    <message>
        <source>Fashion-MNIST</source>
        <extracomment>An image set&apos;s name, as in &quot;the Fashion-MNIST test images&quot;</extracomment>
        <translation> Fashion-MNIST </translation>
    </message>
    <message>
        <source>clothing-photo</source>
        <extracomment>An image set&apos;s name, as in &quot;the clothing-photo test images&quot; (issue 49)</extracomment>
        <translation>服装照片</translation>
    </message>
    <message>
        <source>cut-out clothing-photo</source>
        <extracomment>An image set&apos;s name, as in &quot;the cut-out clothing-photo test images&quot; (issue 49)</extracomment>
        <translation>抠出衣物的服装照片</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ImageView</name>
    <message>
        <source>Image models export their panels only.</source>
        <translation>图像模型只能导出其面板。</translation>
    </message>
    <message>
        <source>patch (row %1, column %2)</source>
        <extracomment>The query box: the patch clicked, its grid row and column counted from 1</extracomment>
        <translation>图块（第 %1 行，第 %2 列）</translation>
    </message>
    <message>
        <source>&amp;Layer:</source>
        <translation>层(&amp;L)：</translation>
    </message>
    <message>
        <source>&amp;Heads:</source>
        <translation>头(&amp;H)：</translation>
    </message>
    <message>
        <source>&amp;Query:</source>
        <translation>查询(&amp;Q)：</translation>
    </message>
    <message>
        <source>&amp;Opacity:</source>
        <translation>不透明度(&amp;O)：</translation>
    </message>
    <message>
        <source>Colour &amp;map:</source>
        <translation>颜色映射(&amp;M)：</translation>
    </message>
    <message>
        <source>every head</source>
        <translation>每个头</translation>
    </message>
    <message>
        <source>mean of heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <source>rollout</source>
        <translation>注意力展开（rollout）</translation>
    </message>
    <message>
        <source>Rollout: the attention carried through every layer up to this one (Abnar &amp; Zuidema 2020)</source>
        <translation>注意力展开（rollout）：经由直到本层的每一层传递的注意力（Abnar &amp; Zuidema 2020）</translation>
    </message>
    <message>
        <source>what the classifier reads</source>
        <translation>分类器读取的内容</translation>
    </message>
    <message>
        <source>class token</source>
        <translation>类别词元</translation>
    </message>
    <message>
        <source>Whose attention the overlay shows; click a patch in any panel to make it the query</source>
        <translation>叠加层显示谁的注意力；在任一面板中点击一个图块即可将其设为查询</translation>
    </message>
    <message>
        <source>&amp;Shared scale</source>
        <translation>共用色阶(&amp;S)</translation>
    </message>
    <message>
        <source>One colour scale for every panel, from 0 to the largest patch weight of all (shown beside the panels), so that panels can be compared; off, each panel&apos;s scale tops at its own largest weight</source>
        <translation>所有面板共用一个色阶，从 0 到所有面板中最大的图块权重（显示在面板旁），便于比较各面板；关闭时，每个面板的色阶以其自身的最大权重为上限</translation>
    </message>
    <message>
        <source>Query %1 does not fit %2 (%3): what the classifier reads is shown</source>
        <translation>查询 %1 不适用于 %2（%3）：改为显示分类器读取的内容</translation>
    </message>
    <message>
        <source>Unknown colour map &quot;%1&quot;: %2 is shown</source>
        <translation>未知的颜色映射“%1”：改为显示 %2</translation>
    </message>
    <message>
        <source>Layer %1: the models have layers 1 … %2, the last is shown</source>
        <extracomment>%1 the workspace&apos;s layer, %2 the models&apos; last layer (layers counted from 1)</extracomment>
        <translation>第 %1 层：这些模型只有第 1 … %2 层，改为显示最后一层</translation>
    </message>
    <message>
        <source>Query %1 cannot be read (%2): what the classifier reads is shown</source>
        <extracomment>%1 the workspace&apos;s query text, %2 why it cannot be read</extracomment>
        <translation>无法读取查询 %1（%2）：显示分类器读取的内容</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::LinesPanel</name>
    <message>
        <source>Query %1 &quot;%2&quot;</source>
        <translation>查询 %1 “%2”</translation>
    </message>
    <message>
        <source>Key %1 &quot;%2&quot;</source>
        <translation>键 %1 “%2”</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::MainWindow</name>
    <message>
        <source>About attnviz</source>
        <translation>关于 attnviz</translation>
    </message>
    <message>
        <source>&amp;About attnviz</source>
        <translation>关于 attnviz(&amp;A)</translation>
    </message>
    <message>
        <source>No viewer could open the documentation. It is README.md and the docs folder of attnviz&apos;s source code.</source>
        <translation>没有程序能打开文档。文档是 attnviz 源代码中的 README.md 和 docs 文件夹。</translation>
    </message>
    <message>
        <source>Documentation</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>&amp;Documentation</source>
        <translation>文档(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>The variants come from:</source>
        <translation>这些变体出自：</translation>
    </message>
    <message>
        <source>Licence: GNU General Public License, version 3 or later (GPL-3.0-or-later).</source>
        <translation>许可证：GNU 通用公共许可证第 3 版或更高版本（GPL-3.0-or-later）。</translation>
    </message>
    <message>
        <source>See how Transformer attention variants differ: trained models of each variant, their attention maps side by side for any sentence.</source>
        <translation>看看各种 Transformer 注意力变体有何不同：每种变体的已训练模型，任意句子的注意力图并排对比。</translation>
    </message>
    <message>
        <source>Documentation: %1 and the %2 folder.</source>
        <translation>文档：%1 和 %2 文件夹。</translation>
    </message>
    <message>
        <source>The documentation (README.md and docs/) comes with the source code.</source>
        <translation>文档（README.md 和 docs/）随源代码提供。</translation>
    </message>
    <message>
        <source>%1 · updating…</source>
        <extracomment>Dock title while its data is of an earlier sentence, e.g. &quot;Heads · updating…&quot;</extracomment>
        <translation>%1 · 正在更新…</translation>
    </message>
    <message>
        <source>%1 of %2 models could not run on this sentence</source>
        <translation>%2 个模型中有 %1 个无法在此句子上运行</translation>
    </message>
    <message>
        <source>%1 model(s) trained here are not saved: a workspace names its models by their files, so they would be left out of it. Save them first?</source>
        <translation>%1 个在此训练的模型尚未保存：工作区按文件记录模型，因此它们会被排除在外。先保存它们吗？</translation>
    </message>
    <message>
        <source>Save &amp;without them</source>
        <translation>不含它们直接保存(&amp;W)</translation>
    </message>
    <message>
        <source>%1 model(s) trained here are not saved. Switching to &quot;%2&quot; closes them and their training is lost.</source>
        <translation>在此训练的 %1 个模型尚未保存。切换到“%2”会关闭它们，其训练结果将丢失。</translation>
    </message>
    <message>
        <source>S&amp;witch without saving</source>
        <translation>不保存直接切换(&amp;W)</translation>
    </message>
    <message>
        <source>%1 model(s) trained here are not saved. Quitting loses them.</source>
        <translation>在此训练的 %1 个模型尚未保存。退出将丢失它们。</translation>
    </message>
    <message>
        <source>&amp;Quit without saving</source>
        <translation>不保存直接退出(&amp;Q)</translation>
    </message>
    <message>
        <source>%1 model(s) trained here are not saved and would be closed; their training is lost.</source>
        <translation>%1 个在此训练的模型尚未保存，将被关闭，其训练结果会丢失。</translation>
    </message>
    <message>
        <source>C&amp;lose them</source>
        <translation>关闭它们(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Choose models…</source>
        <translation>选择模型(&amp;C)…</translation>
    </message>
    <message>
        <source>Co&amp;mpare</source>
        <translation>对比(&amp;M)</translation>
    </message>
    <message>
        <source>&quot;%1&quot; has none of the models of &quot;%2&quot;</source>
        <translation>“%1”中没有“%2”所需的模型</translation>
    </message>
    <message>
        <source>%1: %2 models</source>
        <translation>%1：%2 个模型</translation>
    </message>
    <message>
        <source>Choose models</source>
        <translation>选择模型</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open checkpoint as a new column…</source>
        <translation>将检查点打开为新列(&amp;O)…</translation>
    </message>
    <message>
        <source>Open checkpoint</source>
        <translation>打开检查点</translation>
    </message>
    <message>
        <source>Checkpoints (*.safetensors)</source>
        <translation>检查点 (*.safetensors)</translation>
    </message>
    <message>
        <source>Open &amp;sentence list…</source>
        <translation>打开句子列表(&amp;S)…</translation>
    </message>
    <message>
        <source>Open training &amp;probe…</source>
        <translation>打开训练探针(&amp;P)…</translation>
    </message>
    <message>
        <source>Open training probe</source>
        <translation>打开训练探针</translation>
    </message>
    <message>
        <source>Probe files (*.probe.json);;All files (*)</source>
        <extracomment>File dialog filters: translate the descriptions; keep the patterns and &quot;;;&quot;</extracomment>
        <translation>探针文件 (*.probe.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>A training probe could not be opened</source>
        <translation>无法打开训练探针</translation>
    </message>
    <message>
        <source>opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>&amp;Watch folder…</source>
        <translation>监视文件夹(&amp;W)…</translation>
    </message>
    <message>
        <source>Watch folder of checkpoints</source>
        <translation>监视检查点文件夹</translation>
    </message>
    <message>
        <source>Stop &amp;watching</source>
        <translation>停止监视(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Recent sentences</source>
        <translation>最近的句子(&amp;R)</translation>
    </message>
    <message>
        <source>Open &amp;workspace…</source>
        <translation>打开工作区(&amp;W)…</translation>
    </message>
    <message>
        <source>Open workspace</source>
        <translation>打开工作区</translation>
    </message>
    <message>
        <source>attnviz workspace (*.attnviz.json *.json)</source>
        <translation>attnviz 工作区 (*.attnviz.json *.json)</translation>
    </message>
    <message>
        <source>Save workspace &amp;as…</source>
        <translation>工作区另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Save workspace</source>
        <translation>保存工作区</translation>
    </message>
    <message>
        <source>attnviz workspace (*.attnviz.json)</source>
        <translation>attnviz 工作区 (*.attnviz.json)</translation>
    </message>
    <message>
        <source>&amp;Export figure…</source>
        <translation>导出图(&amp;E)…</translation>
    </message>
    <message>
        <source>wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>Export &amp;data…</source>
        <translation>导出数据(&amp;D)…</translation>
    </message>
    <message>
        <source>Export data</source>
        <translation>导出数据</translation>
    </message>
    <message>
        <source>CSV, long form (*.csv);;JSON dump (*.json);;NumPy (*.npy)</source>
        <extracomment>File dialog filters: translate the descriptions; keep the patterns and &quot;;;&quot;</extracomment>
        <translation>CSV，长格式 (*.csv);;JSON 转储 (*.json);;NumPy (*.npy)</translation>
    </message>
    <message>
        <source>exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Encoder self-attention</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>Decoder self-attention</source>
        <translation>解码器自注意力</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>Next query</source>
        <translation>下一个查询</translation>
    </message>
    <message>
        <source>Previous query</source>
        <translation>上一个查询</translation>
    </message>
    <message>
        <source>Clear query</source>
        <translation>清除查询</translation>
    </message>
    <message>
        <source>Next column</source>
        <translation>下一列</translation>
    </message>
    <message>
        <source>Previous column</source>
        <translation>上一列</translation>
    </message>
    <message>
        <source>Zoom &amp;in</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Actual size</source>
        <translation>实际大小(&amp;A)</translation>
    </message>
    <message>
        <source>Focus the sentence</source>
        <extracomment>Moves the keyboard focus to the sentence field</extracomment>
        <translation>聚焦句子输入框</translation>
    </message>
    <message>
        <source>&amp;Columns</source>
        <translation>列(&amp;C)</translation>
    </message>
    <message>
        <source>Show every &amp;layer of the clicked model</source>
        <translation>显示所点击模型的所有层(&amp;L)</translation>
    </message>
    <message>
        <source>all models</source>
        <translation>所有模型</translation>
    </message>
    <message>
        <source>every layer of %1 (Ctrl+Shift+L: back to all models)</source>
        <translation>%1 的所有层（Ctrl+Shift+L：返回所有模型）</translation>
    </message>
    <message>
        <source>Move clicked column &amp;left</source>
        <translation>左移所点击的列(&amp;L)</translation>
    </message>
    <message>
        <source>Move clicked column &amp;right</source>
        <translation>右移所点击的列(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Remove clicked column</source>
        <translation>移除所点击的列(&amp;R)</translation>
    </message>
    <message>
        <source>current column: %1</source>
        <translation>当前列：%1</translation>
    </message>
    <message>
        <source>Sentence list</source>
        <translation>句子列表</translation>
    </message>
    <message>
        <source>Text or TSV (*.txt *.tsv);;All files (*)</source>
        <extracomment>File dialog filters: translate the descriptions; keep the patterns and &quot;;;&quot;</extracomment>
        <translation>文本或 TSV (*.txt *.tsv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>A sentence list could not be opened</source>
        <translation>无法打开句子列表</translation>
    </message>
    <message>
        <source>(none yet: press Enter in the sentence field)</source>
        <translation>（暂无：在句子输入框中按 Enter）</translation>
    </message>
    <message>
        <source>One line per model (mean of its heads)</source>
        <extracomment>Query profile dock: how the profile plot draws the clicked query&apos;s attention</extracomment>
        <translation>每个模型一条线（其各头的平均）</translation>
    </message>
    <message>
        <source>One line per head of the clicked model</source>
        <extracomment>Query profile dock: how the profile plot draws the clicked query&apos;s attention</extracomment>
        <translation>所点击模型的每个头各一条线</translation>
    </message>
    <message>
        <source>Query profile</source>
        <translation>查询分布</translation>
    </message>
    <message>
        <source>Sentences</source>
        <translation>句子</translation>
    </message>
    <message>
        <source>Variant</source>
        <extracomment>Dock title: the attention variant of the clicked model</extracomment>
        <translation>注意力变体</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Heads</source>
        <extracomment>Dock title: the table of attention heads</extracomment>
        <translation>注意力头</translation>
    </message>
    <message>
        <source>Offset profiles</source>
        <translation>偏移分布</translation>
    </message>
    <message>
        <source>Over training</source>
        <translation>训练过程</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>attnviz — compare attention variants</source>
        <translation>attnviz — 对比注意力变体</translation>
    </message>
    <message>
        <source>Type a sentence, e.g. I want to go to the station</source>
        <translation>输入一个句子，例如 I want to go to the station</translation>
    </message>
    <message>
        <source>Target (empty: each model decodes greedily)</source>
        <translation>目标句（留空：各模型贪心解码）</translation>
    </message>
    <message>
        <source>Show only the models a comparison needs, in its order: dot-product vs hard-coded Gaussian (HC-SA), the HC-SA paper&apos;s four, the Synthesizer family, or every model (also Columns › Compare)</source>
        <translation>只显示一个比较所需的模型，按其顺序：点积 vs 硬编码高斯（HC-SA）、HC-SA 论文的四个模型、Synthesizer 家族，或全部模型（也在“列 › 对比”中）</translation>
    </message>
    <message>
        <source>%1 · %2 models</source>
        <extracomment>A model set in the Models box and how many models it has</extracomment>
        <translation>%1 · %2 个模型</translation>
    </message>
    <message>
        <source>%1 · %2 of %3 models shown</source>
        <extracomment>The current model set in the Models box when some of its models are not shown: %2 of its %3 models are</extracomment>
        <translation>%1 · 显示 %3 个模型中的 %2 个</translation>
    </message>
    <message>
        <source>The bundled models to compare: real English → Spanish text with subword pieces, the toy translation task whose gold alignments are exact, or language models. Replaces the columns.</source>
        <translation>要对比的内置模型：带子词切分的真实英语 → 西班牙语文本、参考对齐完全准确的玩具翻译任务，或语言模型。会替换现有的列。</translation>
    </message>
    <message>
        <source>M&amp;odels</source>
        <extracomment>Form label: the bundled set of models compared</extracomment>
        <translation>模型(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Source</source>
        <extracomment>Form label: the source sentence</extracomment>
        <translation>源句(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Target</source>
        <extracomment>Form label: the target sentence (the reference translation)</extracomment>
        <translation>目标句(&amp;T)</translation>
    </message>
    <message>
        <source>zoom %1%</source>
        <translation>缩放 %1%</translation>
    </message>
    <message>
        <source>analysing…</source>
        <translation>正在分析…</translation>
    </message>
    <message>
        <source>%1 of %2 models could not run</source>
        <translation>%2 个模型中有 %1 个无法运行</translation>
    </message>
    <message>
        <source>Models that could not run on this sentence</source>
        <translation>无法在此句子上运行的模型</translation>
    </message>
    <message>
        <source>Quit attnviz</source>
        <translation>退出 attnviz</translation>
    </message>
    <message>
        <source>Watching %1</source>
        <translation>正在监视 %1</translation>
    </message>
    <message>
        <source>Checkpoints appearing in %1 become columns; a replaced file updates its column (File › Stop watching)</source>
        <translation>%1 中出现的检查点会成为新列；被替换的文件会更新其列（文件 › 停止监视）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <extracomment>Status bar: a problem&apos;s heading, then its detail</extracomment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: %2 … (see Problems)</source>
        <extracomment>Status bar: a problem&apos;s heading, then the first of its details</extracomment>
        <translation>%1：%2 …（见“问题”）</translation>
    </message>
    <message>
        <source>A checkpoint could not be opened</source>
        <translation>无法打开检查点</translation>
    </message>
    <message>
        <source>Switch models</source>
        <translation>切换模型</translation>
    </message>
    <message>
        <source>%1 checkpoint(s) in %2 could not be opened and were skipped</source>
        <translation>%2 中有 %1 个检查点无法打开，已跳过</translation>
    </message>
    <message>
        <source>No models in %1</source>
        <translation>%1 中没有模型</translation>
    </message>
    <message>
        <source>The set &quot;%1&quot; has no checkpoints here (scripts/train-bundled-models %2 makes them).</source>
        <translation>模型集“%1”在此处没有检查点（可用 scripts/train-bundled-models %2 生成）。</translation>
    </message>
    <message>
        <source>%1 models: %2</source>
        <extracomment>Status bar: how many models were opened, then the model set&apos;s name</extracomment>
        <translation>%1 个模型：%2</translation>
    </message>
    <message>
        <source>A workspace could not be opened</source>
        <translation>无法打开工作区</translation>
    </message>
    <message>
        <source>%1 of %2 checkpoints of the workspace %3 could not be opened</source>
        <translation>工作区 %3 的 %2 个检查点中有 %1 个无法打开</translation>
    </message>
    <message>
        <source>The last workspace was not reopened: opening it did not finish at the last start (the app may have crashed on one of its files). Its checkpoints:</source>
        <translation>未重新打开上次的工作区：上次启动时未能完成打开（程序可能在读取其中某个文件时崩溃）。其检查点：</translation>
    </message>
    <message>
        <source>Open the last workspace anyway</source>
        <translation>仍然打开上次的工作区</translation>
    </message>
    <message>
        <source>%1 of %2 checkpoints of the last workspace could not be opened and are left out of it</source>
        <translation>上次工作区的 %2 个检查点中有 %1 个无法打开，已略去</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System language</source>
        <extracomment>View › Language: follow the operating system&apos;s language</extracomment>
        <translation>跟随系统语言</translation>
    </message>
    <message>
        <source>Interface language: %1</source>
        <extracomment>Status bar, after View › Language: %1 the language&apos;s own name</extracomment>
        <translation>界面语言：%1</translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>Part of the workspace&apos;s image mode could not be restored</source>
        <translation>无法恢复工作区图像模式的部分设置</translation>
    </message>
    <message>
        <source>&amp;Present</source>
        <extracomment>The button beside Compare that starts the presentation mode (full screen)</extracomment>
        <translation>演示(&amp;P)</translation>
    </message>
    <message>
        <source>Presentation mode (%1): full screen, large labels, the shown columns under the sentence; ← → step through the tokens, Esc leaves (also View › Presentation mode)</source>
        <extracomment>%1 the shortcut (F5)</extracomment>
        <translation>演示模式（%1）：全屏、大号标签，句子下方是所显示的列；← → 逐个词元切换，Esc 退出（也可用 视图 › 演示模式）</translation>
    </message>
    <message>
        <source>%1 learned from the %2 photos and %3 from the %4 photos: your photo and the test strip are prepared as %1&apos;s were, for every column</source>
        <translation>%1 学习的是“%2”数据集，%3 学习的是“%4”数据集：你的照片和测试图像条对每一列都按 %1 的数据集准备</translation>
    </message>
    <message>
        <source>The columns learned from differently prepared photos</source>
        <translation>这些列学习的照片准备方式不同</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ModelPicker</name>
    <message>
        <source>Choose models</source>
        <translation>选择模型</translation>
    </message>
    <message>
        <source>Tick the models to show; drag them (or Alt+Up/Down) into the order of the columns.</source>
        <translation>勾选要显示的模型；拖动它们（或按 Alt+上/下）排列各列的顺序。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::OffsetProfileView</name>
    <message>
        <source>Each head&apos;s mean weight at each offset j − i (solid) beside the profile of its best-fitting Gaussian window (dashed), for the current sentence and the view&apos;s block and layer; μ, σ and R² in each title (docs/analysis.md)</source>
        <translation>每个头在各偏移 j − i 处的平均权重（实线）及其最佳拟合高斯窗口的偏移分布（虚线），针对当前句子及视图所选的模块和层；各标题中给出 μ、σ 和 R²（见 docs/analysis.md）</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>计算中…</translation>
    </message>
    <message>
        <source>no model to show</source>
        <translation>没有可显示的模型</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::Presentation</name>
    <message>
        <source>%1 &lt;small&gt;(%2)&lt;/small&gt;</source>
        <extracomment>Presentation caption: %1 a model&apos;s translation of the sentence, %2 the model</extracomment>
        <translation>%1 &lt;small&gt;（%2）&lt;/small&gt;</translation>
    </message>
    <message>
        <source>← → step through the tokens · Esc leaves</source>
        <extracomment>Presentation caption: how to use the keys while presenting</extracomment>
        <translation>← → 逐个词元切换 · Esc 退出</translation>
    </message>
    <message>
        <source>Query %1 of %2: “%3”</source>
        <extracomment>Presentation caption: the selected query, %1 of %2 tokens (counted from 1), %3 the token; a token that occurs more than once is followed by which one, e.g. &quot;(2nd)&quot;</extracomment>
        <translation>查询第 %1 个（共 %2 个）：“%3”</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ProblemsPanel</name>
    <message>
        <source>&amp;Clear problems</source>
        <translation>清除问题(&amp;C)</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ProfilePlot</name>
    <message>
        <source>%1 and %2 more, identical</source>
        <extracomment>Profile legend: lines identical to the first are drawn once; %1 the first line&apos;s name, %2 how many others are the same, e.g. &quot;head 0 and 10 more, identical&quot;</extracomment>
        <translation>%1 及另外 %2 条，完全相同</translation>
    </message>
    <message>
        <source>Click a query token to see its weights over the keys</source>
        <translation>点击一个查询词元，查看它在各键上的权重</translation>
    </message>
    <message>
        <source>weight</source>
        <extracomment>Axis title of the profile plot: the attention weight</extracomment>
        <translation>权重</translation>
    </message>
    <message>
        <source>No model has this block for the selected query</source>
        <translation>对于所选查询，没有模型包含此模块</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::SentenceList</name>
    <message>
        <source>&apos;%1&apos; is not valid UTF-8 text</source>
        <translation>“%1”不是有效的 UTF-8 文本</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has no sentences</source>
        <translation>“%1”中没有句子</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::Session</name>
    <message>
        <source>%1: its edited settings in the workspace were not applied: %2</source>
        <translation>%1：其在工作区中编辑过的设置未被应用：%2</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::SingleInstance</name>
    <message>
        <source>no private folder for the single-window socket (%1): this window will not take files from later starts</source>
        <translation>没有可供单窗口套接字使用的私有文件夹（%1）：此窗口将不会接收之后启动时传来的文件</translation>
    </message>
    <message>
        <source>the single-window socket&apos;s folder is not private (%1): this window will not take files from later starts</source>
        <translation>单窗口套接字所在的文件夹不是私有的（%1）：此窗口将不会接收之后启动时传来的文件</translation>
    </message>
    <message>
        <source>cannot listen on %1 (%2): this window will not take files from later starts</source>
        <translation>无法在 %1 上监听（%2）：此窗口将不会接收之后启动时传来的文件</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::TrainingDock</name>
    <message>
        <source>data file…</source>
        <extracomment>Task combo box item: train on a data file chosen below instead of a built-in task</extracomment>
        <translation>数据文件…</translation>
    </message>
    <message>
        <source>tiny (d 32, 2 heads, 1+1)</source>
        <translation>微型（d 32，2 个头，1+1）</translation>
    </message>
    <message>
        <source>small (d 48, 4 heads, 2+2)</source>
        <translation>小型（d 48，4 个头，2+2）</translation>
    </message>
    <message>
        <source>medium (d 64, 4 heads, 2+2)</source>
        <translation>中型（d 64，4 个头，2+2）</translation>
    </message>
    <message>
        <source>&amp;Task</source>
        <translation>任务(&amp;T)</translation>
    </message>
    <message>
        <source>Data</source>
        <extracomment>Form label: the training data file</extracomment>
        <translation>数据</translation>
    </message>
    <message>
        <source>Tokeni&amp;zer</source>
        <translation>分词器(&amp;Z)</translation>
    </message>
    <message>
        <source>&amp;Variant</source>
        <extracomment>Form label: the attention variant to train</extracomment>
        <translation>变体(&amp;V)</translation>
    </message>
    <message>
        <source>Si&amp;ze</source>
        <extracomment>Form label: the model size</extracomment>
        <translation>规模(&amp;Z)</translation>
    </message>
    <message>
        <source>&amp;Steps</source>
        <extracomment>Form label: the number of training steps</extracomment>
        <translation>步数(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Train</source>
        <translation>训练(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <source>St&amp;op</source>
        <translation>停止(&amp;O)</translation>
    </message>
    <message>
        <source>Sa&amp;ve model…</source>
        <translation>保存模型(&amp;V)…</translation>
    </message>
    <message>
        <source>idle</source>
        <extracomment>Progress bar text: no training run yet</extracomment>
        <translation>空闲</translation>
    </message>
    <message>
        <source>step</source>
        <extracomment>Loss plot axis title: the training step</extracomment>
        <translation>步</translation>
    </message>
    <message>
        <source>training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <source>TSV (source&lt;TAB&gt;target) or text (language model)</source>
        <translation>TSV 或纯文本（语言模型）</translation>
    </message>
    <message>
        <source>words (unknown words become &lt;unk&gt;)</source>
        <translation>词级（未知词变为 &lt;unk&gt;）</translation>
    </message>
    <message>
        <source>subwords: SentencePiece trained on the data (never &lt;unk&gt;)</source>
        <translation>子词：在该数据上训练的 SentencePiece（不会产生 &lt;unk&gt;）</translation>
    </message>
    <message>
        <source>Training data</source>
        <translation>训练数据</translation>
    </message>
    <message>
        <source>Text or TSV (*.txt *.tsv);;All files (*)</source>
        <translation>文本或 TSV (*.txt *.tsv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>&amp;Record attention over training</source>
        <translation>记录训练过程中的注意力(&amp;R)</translation>
    </message>
    <message>
        <source>every </source>
        <extracomment>Spin box prefix, read with the value and the suffix: &quot;every 50 steps&quot;</extracomment>
        <translation>每 </translation>
    </message>
    <message>
        <source> steps</source>
        <extracomment>Spin box suffix, read with the prefix and the value: &quot;every 50 steps&quot;</extracomment>
        <translation> 步</translation>
    </message>
    <message>
        <source>The current sentence&apos;s attention is recorded every N steps and shown in the Over training dock</source>
        <translation>每 N 步记录一次当前句子的注意力，并显示在“训练过程”停靠窗口中</translation>
    </message>
    <message>
        <source>Cannot train: %1</source>
        <translation>无法训练：%1</translation>
    </message>
    <message>
        <source>a training run is already in progress</source>
        <translation>已有训练正在进行</translation>
    </message>
    <message>
        <source>preparing…</source>
        <translation>准备中…</translation>
    </message>
    <message>
        <source>%1 / %2 · loss %3 · ETA %4:%5</source>
        <extracomment>Progress bar: step / total steps, the loss, the time left (minutes:seconds)</extracomment>
        <translation>%1 / %2 · 损失 %3 · 预计剩余 %4:%5</translation>
    </message>
    <message>
        <source>%1k tokens/s</source>
        <translation>%1k 词元/秒</translation>
    </message>
    <message>
        <source>Training failed: %1</source>
        <translation>训练失败：%1</translation>
    </message>
    <message>
        <source>held-out loss&#xa0;%1, token accuracy&#xa0;%2%, BLEU&#xa0;%3</source>
        <translation>留出集损失&#xa0;%1，词元准确率&#xa0;%2%，BLEU&#xa0;%3</translation>
    </message>
    <message>
        <source>held-out loss&#xa0;%1, token accuracy&#xa0;%2%</source>
        <translation>留出集损失&#xa0;%1，词元准确率&#xa0;%2%</translation>
    </message>
    <message>
        <source>done · %1</source>
        <extracomment>Progress bar after a run: &quot;done · held-out loss 1.234, …&quot;</extracomment>
        <translation>完成 · %1</translation>
    </message>
    <message>
        <source>no held-out set: the data were too few to hold any line out (every 20th line is held out)</source>
        <translation>没有留出集：数据太少，没有任何一行被留出（每 20 行留出一行）</translation>
    </message>
    <message>
        <source>trained %1: %2</source>
        <translation>已训练 %1：%2</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>继续(&amp;R)</translation>
    </message>
    <message>
        <source>Save model</source>
        <translation>保存模型</translation>
    </message>
    <message>
        <source>Checkpoints (*.safetensors)</source>
        <translation>检查点 (*.safetensors)</translation>
    </message>
    <message>
        <source>saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Save %1 models into a folder</source>
        <translation>将 %1 个模型保存到文件夹</translation>
    </message>
    <message>
        <source>Cannot save: %1</source>
        <translation>无法保存：%1</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::UnsavedPrompt</name>
    <message>
        <source>&amp;Save models…</source>
        <translation>保存模型(&amp;S)…</translation>
    </message>
    <message>
        <source>Saves them (one file dialog for one model, one folder for several), then goes on</source>
        <translation>保存它们（一个模型用文件对话框，多个模型选一个文件夹），然后继续</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::VariantPanel</name>
    <message>
        <source>&amp;Reset to trained values</source>
        <translation>恢复为训练值(&amp;R)</translation>
    </message>
    <message>
        <source>Puts every edited setting of this model back to what its checkpoint holds</source>
        <translation>将此模型所有已编辑的设置恢复为其检查点中的值</translation>
    </message>
    <message>
        <source>%1: back to its trained values</source>
        <translation>%1：已恢复为训练值</translation>
    </message>
    <message>
        <source>Click a panel to see its variant.</source>
        <translation>点击一个面板以查看其变体。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 (%3 heads)</source>
        <extracomment>A block of the model: its kind (&quot;enc self&quot;), its attention variant, its head count</extracomment>
        <translation>&lt;b&gt;%1&lt;/b&gt;：%2（%3 个头）</translation>
    </message>
    <message>
        <source>parameters: %1 (%2 trainable)</source>
        <translation>参数量：%1（其中 %2 可训练）</translation>
    </message>
    <message>
        <source>%1: numbers separated by commas, e.g. -1, 1</source>
        <extracomment>%1 an option&apos;s name (not translated)</extracomment>
        <translation>%1：以逗号分隔的数字，例如 -1, 1</translation>
    </message>
    <message>
        <source>&lt;b&gt;stem&lt;/b&gt;: 3 × 3 convolutions of stride 2 to %1 channels, before the patches</source>
        <extracomment>An image model&apos;s convolutional stem: %1 its channel counts, e.g. &quot;24, 48, 64&quot;</extracomment>
        <translation>&lt;b&gt;卷积主干&lt;/b&gt;：在切块之前，用 3 × 3、步长 2 的卷积依次变为 %1 个通道</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ViewControls</name>
    <message>
        <source>What the panels hold: the attention weights; attention rollout through the self-attention layers (Abnar &amp; Zuidema 2020); each model minus the first column (same block, layer and head; move a column first to compare against it); or each head minus its best-fitting Gaussian window. Differences use a blue–white–red scale centred at 0 (docs/analysis.md).
− column 1 compares maps, not matching heads: separately trained models&apos; heads do not correspond (head k of one model is not head k of another), so a head&apos;s difference says how two maps differ, not how one head changed. Layout › Mean compares each model&apos;s mean map; models with different head counts are not subtracted head by head (their panels say so).</source>
        <translation>面板显示的内容：注意力权重；逐层经过各个自注意力层的注意力展开（rollout，Abnar &amp; Zuidema 2020）；各模型减去第 1 列（相同模块、层和头；要与某一列对比，请先将其移到第 1 列）；或各头减去其最佳拟合高斯窗口。差值使用以 0 为中心的蓝–白–红色阶（见 docs/analysis.md）。
“− 第 1 列”比较的是注意力图，而不是相互对应的头：分别训练的模型的头并不对应（一个模型的第 k 个头不是另一个模型的第 k 个头），所以某个头的差值说明的是两张图的差别，而不是某个头如何变化。布局 › 平均 比较各模型的平均注意力图；头数不同的模型不会逐头相减（其面板会说明）。</translation>
    </message>
    <message>
        <source>Each model&apos;s maps minus the first column&apos;s, head k minus head k. Heads of separately trained models do not correspond: this compares maps, not matching heads</source>
        <extracomment>Tooltip of the combo box item &quot;− column 1&quot;</extracomment>
        <translation>各模型的注意力图减去第 1 列的，第 k 个头减第 k 个头。分别训练的模型的头并不对应：这比较的是注意力图，而不是相互对应的头</translation>
    </message>
    <message>
        <source>S&amp;hared scale</source>
        <extracomment>Check box: one colour scale for every panel</extracomment>
        <translation>共享色阶(&amp;H)</translation>
    </message>
    <message>
        <source>One colour scale for every panel, its colour bar beside the grid, so that panels compare; off, each panel tops at its own largest weight</source>
        <translation>所有面板共用一个色阶，色条在网格旁边，便于比较各面板；关闭时，每个面板以其自身的最大权重为顶</translation>
    </message>
    <message>
        <source>&amp;Words</source>
        <translation>整词(&amp;W)</translation>
    </message>
    <message>
        <source>Li&amp;nes</source>
        <translation>连线(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Quality</source>
        <extracomment>Check box: show each model&apos;s held-out quality (BLEU, accuracy, AER) in its column header</extracomment>
        <translation>质量(&amp;Q)</translation>
    </message>
    <message>
        <source>Show each model&apos;s held-out quality in its column header, as its checkpoint records it: BLEU for translation models (else token accuracy) and the best head&apos;s AER; nothing for models without these numbers. Hover a header for what they mean</source>
        <translation>在各列标题中显示模型的留出集质量（取自其检查点的记录）：翻译模型显示 BLEU（否则显示词元准确率）以及最佳注意力头的 AER；没有这些数值的模型不显示。将鼠标指针悬停在标题上可查看其含义</translation>
    </message>
    <message>
        <source>Draw each head as lines from the query tokens (left) to the key tokens (right), stronger lines for larger weights; hover a token to see only its lines, click a query to select it</source>
        <translation>将每个头绘制为从查询词元（左）到键词元（右）的连线，权重越大线条越明显；鼠标悬停在词元上时只显示其连线，点击查询可将其选中</translation>
    </message>
    <message>
        <source>Merge subword pieces into words: a word&apos;s weight as a key is the sum over its pieces, as a query the mean (Clark et al., 2019). Words start where the tokenizer marks a word start (▁); Chinese, Japanese and Korean text has no spaces, so there each character is a word (the panels then say &quot;CJK by character&quot;)</source>
        <translation>将子词片段合并为词：词作为键时，其权重为各片段之和；作为查询时为各片段的平均值（Clark et al., 2019）。词从分词器标记的词首（▁）开始；中文、日文和韩文没有空格，因此其中每个字为一个词（此时面板注明“中日韩文字按字”）</translation>
    </message>
    <message>
        <source>Compare: models × heads</source>
        <translation>对比：模型 × 头</translation>
    </message>
    <message>
        <source>Mean: a panel per model</source>
        <extracomment>Layout combo box item: the mean of each model&apos;s heads, one panel per model</extracomment>
        <translation>平均：每个模型一个面板</translation>
    </message>
    <message>
        <source>Focus: a model&apos;s layers</source>
        <extracomment>Layout combo box item: every layer and head of one model (the clicked one)</extracomment>
        <translation>聚焦：一个模型的各层</translation>
    </message>
    <message>
        <source>Compare every model&apos;s heads; the mean of each model&apos;s heads, one large panel per model; or every layer and head of the clicked model (Ctrl+Shift+L)</source>
        <translation>对比所有模型的头；显示每个模型各头的平均，每个模型一个大面板；或显示所点击模型的所有层和头（Ctrl+Shift+L）</translation>
    </message>
    <message>
        <source>Weights</source>
        <extracomment>Combo box item: what the panels show (the attention weights themselves)</extracomment>
        <translation>权重</translation>
    </message>
    <message>
        <source>Rollout</source>
        <extracomment>Combo box item: what the panels show (attention rollout, Abnar &amp; Zuidema 2020)</extracomment>
        <translation>注意力展开（rollout）</translation>
    </message>
    <message>
        <source>− column 1</source>
        <extracomment>Combo box item: what the panels show (each model minus the first column)</extracomment>
        <translation>− 第 1 列</translation>
    </message>
    <message>
        <source>− Gaussian fit</source>
        <extracomment>Combo box item: what the panels show (each head minus its best-fitting Gaussian window)</extracomment>
        <translation>− 高斯拟合</translation>
    </message>
    <message>
        <source>Encoder self-attention</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>Decoder self-attention</source>
        <translation>解码器自注意力</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source> pt</source>
        <extracomment>Spin box suffix: points, the unit of the label size</extracomment>
        <translation> pt</translation>
    </message>
    <message>
        <source>Size of the token labels on screen (figures have their own)</source>
        <translation>屏幕上词元标签的字号（导出的图另有设置）</translation>
    </message>
    <message>
        <source>linear</source>
        <extracomment>Colour scaling of the weights: linear</extracomment>
        <translation>线性</translation>
    </message>
    <message>
        <source>power</source>
        <extracomment>Colour scaling of the weights: a power (gamma) curve</extracomment>
        <translation>幂函数</translation>
    </message>
    <message>
        <source>log</source>
        <extracomment>Colour scaling of the weights: logarithmic</extracomment>
        <translation>对数</translation>
    </message>
    <message>
        <source>&amp;Block</source>
        <translation>模块(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Layer</source>
        <translation>层(&amp;L)</translation>
    </message>
    <message>
        <source>La&amp;yout</source>
        <translation>布局(&amp;Y)</translation>
    </message>
    <message>
        <source>&amp;Colours</source>
        <translation>配色(&amp;C)</translation>
    </message>
    <message>
        <source>Sc&amp;aling</source>
        <translation>标度(&amp;A)</translation>
    </message>
    <message>
        <source>Lab&amp;els</source>
        <extracomment>View bar: the size of the token labels on screen (points)</extracomment>
        <translation>标签(&amp;E)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ViewState</name>
    <message>
        <source>enc self</source>
        <extracomment>Short label of a block kind: encoder self-attention</extracomment>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>dec self</source>
        <extracomment>Short label of a block kind: decoder self-attention</extracomment>
        <translation>解码器自注意力</translation>
    </message>
    <message>
        <source>cross</source>
        <extracomment>Short label of a block kind: cross-attention (encoder–decoder)</extracomment>
        <translation>交叉注意力</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::WorkspaceModel</name>
    <message>
        <source>%1 of %2 models could not run: %3</source>
        <translation>%2 个模型中有 %1 个无法运行：%3</translation>
    </message>
    <message>
        <source>%1 models</source>
        <extracomment>Status: how many models the sentence ran on</extracomment>
        <translation>%1 个模型</translation>
    </message>
</context>
</TS>
